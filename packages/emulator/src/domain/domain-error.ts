/** Why the emulator refuses a request, in the domain's terms; the HTTP layer answers each kind with its status. */
export type RefusalKind = "invalid" | "not_found" | "forbidden" | "conflict";

/** A refusal: its kind, the error `name` the service gives and a message naming the field and the rule. */
export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export function badRequest(message: string, name = "ValidationError"): DomainError {
  return new DomainError("invalid", name, message);
}

export function notFound(message: string): DomainError {
  return new DomainError("not_found", "NotFound", message);
}

export function forbidden(name: string, message: string): DomainError {
  return new DomainError("forbidden", name, message);
}

export function conflict(name: string, message: string): DomainError {
  return new DomainError("conflict", name, message);
}
