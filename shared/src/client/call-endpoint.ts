import { z } from "zod";
import { parseJsonExact, stringifyJsonExact } from "../json/exact-json.js";
import { abortableDelay } from "./abortable-delay.js";
import { apiErrorFromResponse, RATE_LIMIT_STATUSES, readErrorBody } from "./api-error-from-response.js";
import type { CallOptions, ClientConfig } from "./client-options.js";
import { resolveTimeout } from "./client-options.js";
import type { CustodyError, HttpMethod } from "./errors.js";
import { AmbiguousWriteError, InvalidInputError, NetworkError, ResponseValidationError, TimeoutError } from "./errors.js";
import type { AttemptRequest, AttemptResult } from "./attempt.js";
import { attempt } from "./attempt.js";
import { fieldIssues } from "../schemas/field-issues.js";
import { parseRetryAfterMs, retryWaitMs } from "./retry-delay.js";
import { errorMessage } from "../untrusted/error-message.js";

export interface EndpointCall<S extends z.ZodType> {
  method: HttpMethod;
  /** The service path, already encoded, with its query string; appended to the base URL. */
  path: string;
  response: S;
  /** A JSON body, validated with its schema and encoded to the wire form before sending. */
  body?: { schema: z.ZodType; value: unknown };
}

/** 5xx answers to a POST that say nothing reliable about whether the write happened. */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function isRetryableStatus(status: number): boolean {
  return status >= 500 || RATE_LIMIT_STATUSES.has(status);
}

function encodeBody(method: HttpMethod, path: string, body: { schema: z.ZodType; value: unknown }): string {
  const subject = `${method} ${path} request body`;
  const parsed = body.schema.safeParse(body.value);
  if (!parsed.success) throw new InvalidInputError(subject, fieldIssues(parsed.error));
  const wire = z.safeEncode(body.schema, parsed.data);
  if (!wire.success) throw new InvalidInputError(subject, fieldIssues(wire.error));
  return stringifyJsonExact(wire.data);
}

function decodeResponse<S extends z.ZodType>(
  method: HttpMethod,
  path: string,
  result: { status: number; text: string; unread: boolean },
  schema: S,
): z.output<S> {
  const { status, text } = result;
  if (result.unread) throw new ResponseValidationError({ method, path, status, issues: [{ path: "(body)", message: text }], responseText: "" });
  let json: unknown;
  try {
    json = parseJsonExact(text);
  } catch (error) {
    const reason = errorMessage(error);
    throw new ResponseValidationError({ method, path, status, issues: [{ path: "(body)", message: `is not valid JSON (${reason})` }], responseText: text });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ResponseValidationError({ method, path, status, issues: fieldIssues(parsed.error), responseText: text });
  return parsed.data;
}

function headersFor(config: ClientConfig, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers, "X-Vendor-API-User": config.operator, Accept: "application/json" };
  if (hasBody) headers["Content-Type"] = "application/json";
  if (config.userAgent !== undefined) headers["User-Agent"] = config.userAgent;
  return headers;
}

/** Calls one endpoint: GETs retried with backoff, a POST sent exactly once. Returns the decoded response. */
export async function callEndpoint<S extends z.ZodType>(config: ClientConfig, call: EndpointCall<S>, options: CallOptions = {}): Promise<z.output<S>> {
  const timeoutMs = resolveTimeout(`${call.method} ${call.path} call options`, options.timeoutMs, config.timeoutMs);
  const bodyText = call.body === undefined ? undefined : encodeBody(call.method, call.path, call.body);
  const request: AttemptRequest = { method: call.method, path: call.path, headers: headersFor(config, bodyText !== undefined), body: bodyText };
  const send = async () => {
    const result = await attempt({ transport: config.transport, request, timeoutMs, signal: options.signal, maxBytes: config.maxResponseBytes });
    if (result.kind === "response") config.serviceClock.observe(result.headers.get("date"));
    return result;
  };
  if (call.method === "POST") return postOnce(config, call, bodyText, timeoutMs, options.signal, send);
  return getWithRetries(config, call, timeoutMs, options.signal, send);
}

async function getWithRetries<S extends z.ZodType>(
  config: ClientConfig,
  call: EndpointCall<S>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  send: () => Promise<AttemptResult>,
): Promise<z.output<S>> {
  const { method, path } = call;
  for (let index = 0; ; index += 1) {
    const attempts = index + 1;
    const result = await send();
    let failure: CustodyError;
    let retryAfterMs: number | null = null;
    switch (result.kind) {
      case "aborted":
        throw result.reason;
      case "response": {
        if (isSuccess(result.status)) return decodeResponse(method, path, result, call.response);
        failure = apiErrorFromResponse({ method, path, status: result.status, headers: result.headers, text: result.text, attempts }, config.operator);
        if (!isRetryableStatus(result.status)) throw failure;
        retryAfterMs = parseRetryAfterMs(result.headers.get("retry-after"));
        break;
      }
      case "timeout":
        failure = new TimeoutError({ method, path, timeoutMs, attempts });
        break;
      case "network":
        failure = new NetworkError({ method, path, attempts, code: result.failure.code, cause: result.error });
        break;
    }
    if (index >= config.retries) throw failure;
    await abortableDelay(retryWaitMs(index, retryAfterMs, config), signal);
  }
}

async function postOnce<S extends z.ZodType>(
  config: ClientConfig,
  call: EndpointCall<S>,
  bodyText: string | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  send: () => Promise<AttemptResult>,
): Promise<z.output<S>> {
  const { method, path } = call;
  // Nothing has left yet: an abort here is a plain abort, not an ambiguous write.
  if (signal?.aborted) throw signal.reason;
  const result = await send();
  const ambiguous = (reason: AmbiguousWriteError["reason"], cause: unknown, status?: number) =>
    new AmbiguousWriteError({ method, path, reason, status, requestBody: call.body?.value, requestBodyText: bodyText, cause });
  switch (result.kind) {
    case "aborted":
      // Stopped while its connection was still opening: nothing left, a plain abort.
      if (result.sentNothing) throw result.reason;
      throw ambiguous("aborted", result.reason);
    case "timeout": {
      const timeout = new TimeoutError({ method, path, timeoutMs, attempts: 1 });
      if (result.sentNothing) throw new NetworkError({ method, path, attempts: 1, code: "ETIMEDOUT", cause: timeout });
      throw ambiguous("timeout", timeout);
    }
    case "network": {
      const cause = new NetworkError({ method, path, attempts: 1, code: result.failure.code, cause: result.error });
      if (result.failure.notSent) throw cause;
      throw ambiguous("network", cause);
    }
    case "response": {
      const { status, headers, text } = result;
      if (isSuccess(status)) return decodeResponse(method, path, result, call.response);
      const failed = { method, path, status, headers, text, attempts: 1 };
      if (status >= 500) {
        if (GATEWAY_STATUSES.has(status) || readErrorBody(text) === undefined) {
          throw ambiguous("status", apiErrorFromResponse(failed, config.operator), status);
        }
        throw apiErrorFromResponse(failed, config.operator, true);
      }
      throw apiErrorFromResponse(failed, config.operator);
    }
  }
}
