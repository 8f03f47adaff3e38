import { decodeBody } from "./bounded-body.js";
import type { HttpMethod } from "./errors.js";
import type { NetworkFailure } from "./network-failure.js";
import { describeNetworkFailure } from "./network-failure.js";

/** An answer's headers, read by name (case-insensitive): fetch's Headers, or node:http's through a reader. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export type AttemptResult =
  /** `unread`: the body was longer than the limit, or in a coding the client does not decode, and was not read; `text` says which. */
  | { kind: "response"; status: number; headers: ResponseHeaders; text: string; unread: boolean }
  /** `sentNothing`: the transport knows no byte of the request left (a connection still opening); false when it cannot tell. */
  | { kind: "timeout"; sentNothing: boolean }
  | { kind: "aborted"; reason: unknown; sentNothing: boolean }
  | { kind: "network"; failure: NetworkFailure; error: unknown };

export interface AttemptRequest {
  method: HttpMethod;
  /** The service path with its query, appended to the base URL's. */
  path: string;
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
}

/** An answer whose body was read whole (decoded), or refused (null) as longer than the limit or in a coding not decoded. */
export interface Answer {
  status: number;
  headers: ResponseHeaders;
  body: Uint8Array | null;
  /** Why a null body was not read when not for its length: its Content-Encoding, which the client does not decode. */
  unknownEncoding?: string;
}

/** One exchange under way: its answer, and how to stop it (the answer then rejects). */
export interface Exchange {
  answer: Promise<Answer>;
  abort(): void;
  /**
   * Whether the transport knows no byte of the request left (its connection never opened): asked
   * when the answer fails. Absent when the transport cannot tell; the failure's error codes decide then.
   */
  sentNothing?: () => boolean;
}

/**
 * Sends one request without following redirects (one would carry the operator header elsewhere)
 * and reads its answer's body, decompressed, under maxBytes (shared's node:http client by default,
 * a given fetch otherwise). It may throw only errors that describeNetworkFailure classifies.
 */
export type Transport = (request: AttemptRequest, maxBytes: number) => Exchange;

export interface AttemptInput {
  transport: Transport;
  request: AttemptRequest;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  maxBytes: number;
}

/**
 * One HTTP exchange, the body read in full, under a timeout that covers both the request and
 * the body (one timer: a deadline, not an idle timeout, so a body that trickles in still ends
 * on time). Never throws: every outcome is a result.
 */
export async function attempt(input: AttemptInput): Promise<AttemptResult> {
  const { signal } = input;
  if (signal?.aborted) return { kind: "aborted", reason: signal.reason, sentNothing: true };
  let exchange: Exchange | undefined;
  let abortedBy: "timeout" | "caller" | null = null;
  const timer = setTimeout(() => {
    abortedBy ??= "timeout";
    exchange?.abort();
  }, input.timeoutMs);
  const onAbort = () => {
    abortedBy ??= "caller";
    exchange?.abort();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    exchange = input.transport(input.request, input.maxBytes);
    const { status, headers, body, unknownEncoding } = await exchange.answer;
    if (body !== null) return { kind: "response", status, headers, text: decodeBody(body), unread: false };
    const text =
      unknownEncoding === undefined
        ? `(a body of more than ${input.maxBytes} bytes, not read)`
        : `(a body in a Content-Encoding the client does not decode, ${unknownEncoding}, not read)`;
    return { kind: "response", status, headers, text, unread: true };
  } catch (error) {
    const sentNothing = exchange?.sentNothing?.();
    if (abortedBy === "caller") return { kind: "aborted", reason: signal?.reason, sentNothing: sentNothing ?? false };
    if (abortedBy === "timeout") return { kind: "timeout", sentNothing: sentNothing ?? false };
    return { kind: "network", failure: describeNetworkFailure(error, sentNothing), error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
