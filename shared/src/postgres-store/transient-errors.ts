/** Errors of the connection, not of the statement: the same work may succeed on a new connection. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  // SQLSTATE: the server shutting down or starting up, too many connections, a conflict to run again.
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "40001",
  "40P01",
]);

/** What the driver says, without a code, when a connection ends or cannot be had in time. */
const TRANSIENT_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/;

/** Whether a database error is worth running the same work again for (connection class 08 included). */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (TRANSIENT_CODES.has(code) || code.startsWith("08"))) return true;
  return error instanceof Error && TRANSIENT_MESSAGES.test(error.message);
}

export interface RetryOptions {
  /** How long, in all, transient failures are run again for before the last one is thrown. */
  retryForMs: number;
  /** Told of each failure that will be tried again. */
  onRetry?: (error: unknown, attempt: number) => void;
}

/**
 * Runs `work` (given its attempt number, from 1) again after transient failures, with a growing
 * pause, until it succeeds, fails otherwise, or retryForMs has passed. Work run again must be
 * idempotent: every store operation recognises its own earlier attempt.
 */
export async function withRetry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const deadline = Date.now() + options.retryForMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!isTransient(error) || Date.now() >= deadline) throw error;
      options.onRetry?.(error, attempt);
      const pause = Math.min(1000, 25 * 2 ** Math.min(attempt, 6));
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    }
  }
}
