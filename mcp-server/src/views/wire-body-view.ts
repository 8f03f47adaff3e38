import { sanitizeUntrustedText } from "@custody/shared";

/** Long enough for any field of a request body (contract data included): only hidden characters go. */
const NO_TRUNCATION = 1_000_000;

/**
 * A request body for the text answer, as the service will receive it: strings sanitised, integers
 * left as bigints, so that stringifyJsonExact writes the wire's JSON exactly (a Solana stake amount
 * is a JSON integer there, where structured content gives every integer as a decimal string).
 */
export function wireBodyForText(value: unknown): unknown {
  if (typeof value === "string") return sanitizeUntrustedText(value, NO_TRUNCATION);
  if (Array.isArray(value)) return value.map(wireBodyForText);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wireBodyForText(item)]));
  return value;
}
