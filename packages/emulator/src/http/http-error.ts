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

export function badRequest(message: string, name = "ValidationError"): HttpError {
  return new HttpError(400, name, message);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, "NotFound", message);
}

export function forbidden(name: string, message: string): HttpError {
  return new HttpError(403, name, message);
}

export function conflict(name: string, message: string): HttpError {
  return new HttpError(409, name, message);
}
