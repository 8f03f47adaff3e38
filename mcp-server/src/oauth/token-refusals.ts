/** A presented access token this server does not accept (answered 401 invalid_token). */
export class InvalidTokenError extends Error {
  override readonly name = "InvalidTokenError";
}

/** An accepted access token that does not grant what the request needs (answered 403 insufficient_scope). */
export class InsufficientScopeError extends Error {
  override readonly name = "InsufficientScopeError";
}
