import { z } from "zod";
import { HeaderOperatorName } from "../schemas/api-user.js";
import { InvalidInputError } from "./errors.js";
import { fieldIssues } from "../schemas/field-issues.js";
import { ServiceClock } from "./service-clock.js";
import { ServiceBaseUrl } from "./service-base-url.js";
import type { Transport } from "./attempt.js";
import { fetchTransport } from "./fetch-transport.js";
import { nodeHttpTransport } from "./node-http-transport.js";

export interface RetryOptions {
  /** Retries of a GET after its first attempt (default 3). POSTs are never retried. */
  retries?: number;
  /** Ceiling of the first backoff wait; doubles on each retry (default 200 ms). */
  baseDelayMs?: number;
  /** Cap of any wait, Retry-After included (default 5000 ms). */
  maxDelayMs?: number;
  /** Source of the full jitter, in [0, 1) (default Math.random); injectable for tests. */
  random?: () => number;
}

export interface CustodyClientOptions {
  /** The module's base address, possibly ending with its own path segment; a trailing slash is optional. */
  baseUrl: string;
  /** Sent as X-Vendor-API-User on every call. */
  operator: string;
  /** Per-attempt timeout, default 30000 ms. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Requests go through this fetch instead of the client's own node:http connections (kept alive, one set per client). */
  fetch?: typeof fetch;
  userAgent?: string;
  /**
   * Headers sent with every call besides the client's own: a gateway's bearer token, an
   * emulator's key. They may not replace X-Vendor-API-User, Accept, Accept-Encoding (the client
   * decodes what it asks for), Content-Type or User-Agent.
   */
  headers?: Readonly<Record<string, string>>;
  /** The largest response body read, in bytes (default 16 MiB); a larger one is refused unread. */
  maxResponseBytes?: number;
}

/** Options accepted by every method. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number;
}

export interface ClientConfig {
  /** Without a trailing slash; service paths (starting with /) are appended to it. */
  baseUrl: string;
  operator: string;
  timeoutMs: number;
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
  /** How requests are sent: node:http by default, the given fetch otherwise. */
  transport: Transport;
  userAgent: string | undefined;
  headers: Readonly<Record<string, string>>;
  maxResponseBytes: number;
  /** Set from every answer's Date header. */
  serviceClock: ServiceClock;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_BASE_DELAY_MS = 200;
export const DEFAULT_MAX_DELAY_MS = 5_000;
/** A page of 1,000 transactions with full notes is about 4 MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const OWN_HEADERS: ReadonlySet<string> = new Set(["x-vendor-api-user", "accept", "accept-encoding", "content-type", "user-agent"]);

export const TimeoutMs = z.int({ error: "must be a whole number of milliseconds" }).min(1).max(600_000);

const OptionsShape = z.object({
  baseUrl: ServiceBaseUrl,
  operator: HeaderOperatorName,
  timeoutMs: TimeoutMs.optional(),
  retry: z
    .object({
      retries: z.int().min(0).max(10).optional(),
      baseDelayMs: z.int().min(0).max(600_000).optional(),
      maxDelayMs: z.int().min(0).max(600_000).optional(),
      random: z.custom<() => number>((value) => typeof value === "function", { message: "must be a function" }).optional(),
    })
    .optional(),
  fetch: z.custom<typeof fetch>((value) => typeof value === "function", { message: "must be a fetch function" }).optional(),
  userAgent: z.string().regex(PRINTABLE_ASCII, { message: "must be printable ASCII" }).optional(),
  headers: z
    .record(z.string(), z.string().regex(PRINTABLE_ASCII, { message: "must be printable ASCII" }))
    .superRefine((headers, ctx) => {
      for (const name of Object.keys(headers)) {
        if (!HEADER_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "must be an HTTP header name" });
        else if (OWN_HEADERS.has(name.toLowerCase())) ctx.addIssue({ code: "custom", path: [name], message: "is set by the client itself" });
      }
    })
    .optional(),
  maxResponseBytes: z
    .int({ error: "must be a whole number of bytes" })
    .min(1024)
    .max(1024 * 1024 * 1024)
    .optional(),
});

export function resolveClientOptions(options: CustodyClientOptions): ClientConfig {
  const parsed = OptionsShape.safeParse(options);
  if (!parsed.success) throw new InvalidInputError("CustodyClient options", fieldIssues(parsed.error));
  const { baseUrl, operator, timeoutMs, retry, userAgent, headers, maxResponseBytes } = parsed.data;
  const url = new URL(baseUrl);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  return {
    baseUrl: base,
    operator,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: retry?.retries ?? DEFAULT_RETRIES,
    baseDelayMs: retry?.baseDelayMs ?? DEFAULT_BASE_DELAY_MS,
    maxDelayMs: retry?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    random: retry?.random ?? Math.random,
    transport: options.fetch === undefined ? nodeHttpTransport(url) : fetchTransport(options.fetch, base),
    userAgent,
    headers: headers ?? {},
    maxResponseBytes: maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    serviceClock: new ServiceClock(),
  };
}

export function resolveTimeout(subject: string, override: number | undefined, fallback: number): number {
  if (override === undefined) return fallback;
  const parsed = TimeoutMs.safeParse(override);
  if (!parsed.success)
    throw new InvalidInputError(
      subject,
      fieldIssues(parsed.error).map((issue) => ({ ...issue, path: "timeoutMs" })),
    );
  return parsed.data;
}
