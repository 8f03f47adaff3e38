import { readBoundedBody } from "./bounded-body.js";
import type { NetworkFailure } from "./network-failure.js";
import { describeNetworkFailure } from "./network-failure.js";

export type AttemptResult =
  /** `oversized`: the body was longer than the limit and was not read; `text` says so. */
  | { kind: "response"; status: number; headers: Headers; text: string; oversized: boolean }
  | { kind: "timeout" }
  | { kind: "aborted"; reason: unknown }
  | { kind: "network"; failure: NetworkFailure; error: unknown };

export interface AttemptInput {
  fetch: typeof fetch;
  url: string;
  init: RequestInit;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  maxBytes: number;
}

/** The body as text, or null as soon as it is known to be longer than maxBytes (the rest is not read). */
async function readBody(response: Response, maxBytes: number): Promise<string | null> {
  const body = await readBoundedBody(response, maxBytes);
  // TextDecoder, like response.text(): invalid sequences replaced, a leading BOM dropped.
  return body === null ? null : new TextDecoder().decode(body);
}

/**
 * One HTTP exchange, the body read in full, under a timeout that covers both the request and
 * the body. Redirects are not followed (a redirect would carry the operator header elsewhere).
 * Never throws: every outcome is a result.
 */
export async function fetchAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { signal } = input;
  if (signal?.aborted) return { kind: "aborted", reason: signal.reason };
  const controller = new AbortController();
  let abortedBy: "timeout" | "caller" | null = null;
  const timer = setTimeout(() => {
    abortedBy ??= "timeout";
    controller.abort();
  }, input.timeoutMs);
  const onAbort = () => {
    abortedBy ??= "caller";
    controller.abort(signal?.reason);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await input.fetch(input.url, { ...input.init, redirect: "manual", signal: controller.signal });
    const text = await readBody(response, input.maxBytes);
    if (text === null)
      return {
        kind: "response",
        status: response.status,
        headers: response.headers,
        text: `(a body of more than ${input.maxBytes} bytes, not read)`,
        oversized: true,
      };
    return { kind: "response", status: response.status, headers: response.headers, text, oversized: false };
  } catch (error) {
    if (abortedBy === "caller") return { kind: "aborted", reason: signal?.reason };
    if (abortedBy === "timeout") return { kind: "timeout" };
    return { kind: "network", failure: describeNetworkFailure(error), error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
