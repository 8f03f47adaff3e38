import type { ErrorBody } from "../schemas/error-body.js";
import type { FieldIssue } from "../schemas/field-issues.js";
import { describeFieldIssues } from "../schemas/field-issues.js";
import { localText, renderText, type LocalText } from "../l10n/translate.js";
import { delimitUntrusted } from "../untrusted/untrusted-text.js";

export type HttpMethod = "GET" | "POST";

/** Longest excerpt of a response body kept in an error. */
export const MAX_ERROR_TEXT_LENGTH = 500;

export function trimForError(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_ERROR_TEXT_LENGTH ? `${trimmed.slice(0, MAX_ERROR_TEXT_LENGTH)}... (truncated)` : trimmed;
}

/** The base of every error raised by the client and the request builders. */
export class CustodyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Input refused before anything is sent: a builder's input, a request body, a path parameter, client options. */
export class InvalidInputError extends CustodyError {
  readonly subject: string;
  readonly issues: readonly FieldIssue[];

  constructor(subject: string, issues: readonly FieldIssue[]) {
    super(`invalid ${subject}: ${describeFieldIssues(issues)}`);
    this.subject = subject;
    this.issues = issues;
  }
}

export interface ApiErrorInit {
  method: HttpMethod;
  path: string;
  status: number;
  /** The parsed error body when the response matches it, else the raw text trimmed. */
  body: ErrorBody | string;
  attempts?: number;
  /** Set on a POST answered by a 5xx with an error body: a failure, but the outcome should still be checked. */
  checkBeforeRetry?: boolean;
}

/** The service's error body, delimited: it is the service's text and may quote workspace names. */
function describeBody(body: ErrorBody | string): LocalText | string {
  if (body === "") return localText("(empty body)");
  return delimitUntrusted("error_body", typeof body === "string" ? body : trimForError(`${body.name}: ${body.message}`));
}

/** " after 3 attempts" when a call was tried more than once, else "". */
function afterAttempts(attempts: number): LocalText | string {
  return attempts > 1 ? localText(" after {0} attempts", attempts) : "";
}

/** The service answered with a status that is not a success; its message in English, its text beside it (a surface translates it). */
export class CustodyApiError extends CustodyError {
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number;
  readonly body: ErrorBody | string;
  readonly attempts: number;
  readonly checkBeforeRetry: boolean;
  readonly text: LocalText;

  constructor(init: ApiErrorInit, given?: LocalText) {
    const attempts = init.attempts ?? 1;
    const check = init.checkBeforeRetry ? localText("; the service reports a failure, but check the outcome (e.g. search by note label) before any retry") : "";
    const text =
      given ?? localText("{0} {1} answered HTTP {2}{3}: {4}{5}", init.method, init.path, init.status, afterAttempts(attempts), describeBody(init.body), check);
    super(renderText(text));
    this.text = text;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.body = init.body;
    this.attempts = attempts;
    this.checkBeforeRetry = init.checkBeforeRetry ?? false;
  }
}

/** HTTP 400 for an operator (X-Vendor-API-User) the module does not know. */
export class UnknownOperatorError extends CustodyApiError {
  readonly operator: string;

  constructor(init: ApiErrorInit, operator: string) {
    super(init, localText('the module does not know the operator "{0}" (X-Vendor-API-User); create and register it first', operator));
    this.operator = operator;
  }
}

/** HTTP 420 or 429. retryAfterMs is the service's Retry-After, uncapped, when it sent one. */
export class RateLimitedError extends CustodyApiError {
  readonly retryAfterMs: number | null;

  constructor(init: ApiErrorInit, retryAfterMs: number | null) {
    super(init);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The connection failed (refused, reset, DNS). For a GET, raised after the retries are spent;
 * for a POST, only when the request certainly was not sent (otherwise AmbiguousWriteError).
 */
export class NetworkError extends CustodyError {
  readonly method: HttpMethod;
  readonly path: string;
  readonly attempts: number;
  readonly code: string | undefined;
  readonly text: LocalText;

  constructor(init: { method: HttpMethod; path: string; attempts: number; code: string | undefined; cause: unknown }) {
    const written = init.method === "POST" ? localText("; the request was not sent, nothing was written") : "";
    const text = localText(
      "{0} {1}: network error ({2}){3}{4}",
      init.method,
      init.path,
      init.code ?? localText("connection failed"),
      afterAttempts(init.attempts),
      written,
    );
    super(renderText(text), { cause: init.cause });
    this.text = text;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.code = init.code;
  }
}

/** A GET got no complete answer within the timeout (after the retries are spent). */
export class TimeoutError extends CustodyError {
  readonly method: HttpMethod;
  readonly path: string;
  readonly timeoutMs: number;
  readonly attempts: number;

  constructor(init: { method: HttpMethod; path: string; timeoutMs: number; attempts: number }) {
    const tries = init.attempts > 1 ? ` (each of ${init.attempts} attempts)` : "";
    super(`${init.method} ${init.path}: no complete answer within ${init.timeoutMs} ms${tries}`);
    this.method = init.method;
    this.path = init.path;
    this.timeoutMs = init.timeoutMs;
    this.attempts = init.attempts;
  }
}

export type AmbiguityReason = "timeout" | "network" | "aborted" | "status";

const AMBIGUITY_TEXT: Record<AmbiguityReason, string> = {
  timeout: "no answer within the timeout",
  network: "the connection failed after the request was sent",
  aborted: "the call was aborted after the request was sent",
  status: "the service answered with a gateway or server error",
};

/**
 * A POST whose outcome is unknown: the write may or may not have been applied. The client never
 * retries a POST; look the write up (for example searchTransactions({ label }) with the note
 * you sent) before sending it again.
 */
export class AmbiguousWriteError extends CustodyError {
  readonly method: HttpMethod;
  readonly path: string;
  readonly reason: AmbiguityReason;
  readonly status: number | null;
  /** The body as given to the client, and exactly as it was sent. */
  readonly requestBody: unknown;
  readonly requestBodyText: string | undefined;

  constructor(init: {
    method: HttpMethod;
    path: string;
    reason: AmbiguityReason;
    status?: number;
    requestBody: unknown;
    requestBodyText: string | undefined;
    cause?: unknown;
  }) {
    const status = init.status === undefined ? "" : ` (HTTP ${init.status})`;
    super(
      `${init.method} ${init.path}: outcome unknown, ${AMBIGUITY_TEXT[init.reason]}${status}; the write may have been applied. ` +
        "Look it up (e.g. by its note label) before any retry; the client never retries a POST.",
      { cause: init.cause },
    );
    this.method = init.method;
    this.path = init.path;
    this.reason = init.reason;
    this.status = init.status ?? null;
    this.requestBody = init.requestBody;
    this.requestBodyText = init.requestBodyText;
  }
}

/** A success response whose body is not JSON or does not match the expected schema. */
export class ResponseValidationError extends CustodyError {
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number;
  readonly issues: readonly FieldIssue[];
  readonly responseText: string;

  constructor(init: { method: HttpMethod; path: string; status: number; issues: readonly FieldIssue[]; responseText: string }) {
    const accepted = init.method === "POST" ? ` The write was accepted (HTTP ${init.status}) but its answer is unreadable: look it up before any retry.` : "";
    super(`${init.method} ${init.path}: the response does not match the expected shape: ${describeFieldIssues(init.issues)}.${accepted}`);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.issues = init.issues;
    this.responseText = trimForError(init.responseText);
  }
}

/** A listAll/iterate walk reached its page cap while the service still reported more pages. */
export class PageLimitError extends CustodyError {
  readonly path: string;
  readonly maxPages: number;

  constructor(path: string, maxPages: number) {
    super(`GET ${path}: more than ${maxPages} pages; narrow the query or raise maxPages`);
    this.path = path;
    this.maxPages = maxPages;
  }
}
