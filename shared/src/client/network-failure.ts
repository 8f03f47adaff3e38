/** Error codes of failures that happen before any byte of the request leaves (a fetch's: it says nothing else of where it failed). */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export interface NetworkFailure {
  /** The first system or undici error code found in the cause chain. */
  code: string | undefined;
  /** True only when the failure certainly happened before the request was sent. */
  notSent: boolean;
}

function codesOf(error: unknown, depth = 0): string[] {
  if (depth > 5 || error === null || typeof error !== "object") return [];
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof record.code === "string" ? [record.code] : [];
  const nested = Array.isArray(record.errors) ? record.errors.flatMap((inner) => codesOf(inner, depth + 1)) : [];
  return [...own, ...nested, ...codesOf(record.cause, depth + 1)];
}

/**
 * Classifies an error of a request (or of reading its answer) that is neither a timeout nor an
 * abort. `sentNothing` is what the transport knows of the request (node:http: whether its
 * connection ever opened); when it cannot tell (a fetch), the error codes decide.
 */
export function describeNetworkFailure(error: unknown, sentNothing?: boolean): NetworkFailure {
  const codes = codesOf(error);
  return {
    code: codes[0],
    notSent: sentNothing ?? (codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code))),
  };
}
