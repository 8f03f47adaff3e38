import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { ConfirmationTokens } from "../server/confirmation-token.js";
import { openHandle, sealHandle, type SealedKind } from "../server/sealed-handle.js";

/** Longer than a browser keeps (4 KiB a cookie): not one this server set. */
const MAX_VALUE_CHARS = 4000;
/** Where the page's cookies are sent: its routes only, never the MCP endpoint. */
const COOKIE_PATH = "/confirm";

/** What every signed cookie holds besides its value: when it expires (ms). */
const Expiring = z.looseObject({ exp: z.number() });

/** A cookie's value has no label: its purpose alone tells it apart. */
function cookieKind(purpose: string): SealedKind<z.infer<typeof Expiring>> {
  return { prefix: null, purpose, maxChars: MAX_VALUE_CHARS, payload: Expiring };
}

/**
 * A value this server minted for a browser to bring back: `<base64url JSON>.<HMAC>` under the token
 * secret with a purpose of its own (so no other signed text passes for it), expiring at `exp` (ms):
 * any replica that reads the secret opens it; none remembers it.
 */
export function mintSigned(tokens: ConfirmationTokens, purpose: string, value: object, exp: number): string {
  return sealHandle(tokens, cookieKind(purpose), { ...value, exp });
}

/** The value of a text mintSigned made for this purpose, unexpired and of this shape; else null (altered, another purpose, expired). */
export function openSigned<T>(tokens: ConfirmationTokens, purpose: string, text: string | null, schema: z.ZodType<T>, now: number): T | null {
  if (text === null) return null;
  const opened = openHandle(tokens, cookieKind(purpose), text);
  if (!opened.ok || now >= opened.payload.exp) return null;
  const parsed = schema.safeParse(opened.payload);
  return parsed.success ? parsed.data : null;
}

/** A cookie the request carries, by name (the first of that name), or null. */
export function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

/** A Set-Cookie value for the page's routes: HttpOnly, Secure behind TLS, `maxAgeSeconds` 0 to drop it. */
export function setCookie(name: string, value: string, options: { maxAgeSeconds: number; sameSite: "Lax" | "Strict"; secure: boolean }): string {
  return [
    `${name}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${options.maxAgeSeconds}`,
    "HttpOnly",
    `SameSite=${options.sameSite}`,
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

export function fitsCookie(value: string): boolean {
  return value.length <= MAX_VALUE_CHARS;
}
