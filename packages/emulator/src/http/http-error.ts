import type { DomainError, RefusalKind } from "../domain/domain-error.js";

/** An answer other than success: the status, the error `name` and a message naming the field and the rule. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

const STATUS_OF: Readonly<Record<RefusalKind, number>> = { invalid: 400, not_found: 404, forbidden: 403, conflict: 409 };

/** The answer to a domain refusal: its kind's status, its name and message unchanged. */
export function httpErrorOf(refusal: DomainError): HttpError {
  return new HttpError(STATUS_OF[refusal.kind], refusal.errorName, refusal.message);
}
