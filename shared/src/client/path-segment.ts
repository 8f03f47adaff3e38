import { InvalidInputError } from "./errors.js";

/** A numeric identifier in a path: a non-negative safe integer. */
export function idSegment(subject: string, field: string, value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidInputError(subject, [{ path: field, message: `must be a non-negative whole number, got ${String(value)}` }]);
  }
  return String(value);
}

/** A text value in a path, percent-encoded; empty, "." and ".." are refused (URL parsing would drop or resolve them). */
export function textSegment(subject: string, field: string, value: string): string {
  if (typeof value !== "string" || value === "" || value === "." || value === "..") {
    throw new InvalidInputError(subject, [{ path: field, message: 'must be a non-empty path segment other than "." and ".."' }]);
  }
  return encodeURIComponent(value);
}

/** `?a=1&b=x` from the defined parameters, or "" when none is. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.append(key, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}
