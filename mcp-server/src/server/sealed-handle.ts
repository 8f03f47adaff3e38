import type { z } from "zod";
import type { ConfirmationTokens } from "./confirmation-token.js";

/**
 * A kind of handle this server mints and a client or browser brings back: its label (the text's
 * first part; null for none), the purpose its MAC is made for (so no other signed text, a token or
 * another kind of handle, passes for it), the longest text opened, and its payload's schema.
 */
export interface SealedKind<T> {
  prefix: string | null;
  purpose: string;
  maxChars: number;
  payload: z.ZodType<T>;
}

/** Why a text does not open as a handle of a kind. */
export type SealRefusal = "overlong" | "malformed" | "signature" | "unreadable" | "content";

export type Unsealed<T> = { ok: true; payload: T } | { ok: false; refusal: SealRefusal };

/**
 * `<prefix>.<base64url JSON>.<HMAC>` (without a prefix, `<base64url JSON>.<HMAC>`) under the token
 * secret: any replica that reads the secret opens it, none needs to remember it.
 */
export function sealHandle<T>(tokens: ConfirmationTokens, kind: SealedKind<T>, payload: T): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return [...(kind.prefix === null ? [] : [kind.prefix]), body, tokens.sign(kind.purpose, body)].join(".");
}

/** The payload of a handle of this kind this server sealed, or why not; its length is checked before anything is decoded. */
export function openHandle<T>(tokens: ConfirmationTokens, kind: SealedKind<T>, wire: string): Unsealed<T> {
  if (wire.length > kind.maxChars) return { ok: false, refusal: "overlong" };
  const parts = wire.split(".");
  const [body, mac, extra] = kind.prefix === null ? parts : parts[0] === kind.prefix ? parts.slice(1) : [];
  if (body === undefined || mac === undefined || extra !== undefined) return { ok: false, refusal: "malformed" };
  if (!tokens.signed(kind.purpose, body, mac)) return { ok: false, refusal: "signature" };
  let parsed;
  try {
    parsed = kind.payload.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
  } catch {
    return { ok: false, refusal: "unreadable" };
  }
  return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, refusal: "content" };
}
