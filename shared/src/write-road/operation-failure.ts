import { isAmbiguous } from "./send-once.js";

/**
 * The audit event of a call outside the road that changes something at the service and failed:
 * `ambiguous` when its answer was lost (it may have happened), `failed` otherwise.
 */
export function failureEvent(error: unknown): "ambiguous" | "failed" {
  return isAmbiguous(error) ? "ambiguous" : "failed";
}

/**
 * What may stand between two letters or digits of a secret quoted back: a dash, quote or hidden
 * character, an escape (`\u{200B}`, `\u200b`, `\x2d`), a percent-encoded byte, or the sanitiser's
 * count of a run of hidden characters.
 */
const GAP = String.raw`(?:[^0-9A-Za-z]|\\u\{[0-9A-Fa-f]{1,6}\}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|%[0-9A-Fa-f]{2}|\[\+\d+ hidden\]){0,8}`;
/** Secrets with fewer letters and digits are matched as given only: a pattern that short would match ordinary text. */
const SPELLING_MIN = 8;

/**
 * The text with each secret replaced, in any spelling it may come back in: its letters and digits
 * in either case, with or without the dashes, escaped or sanitised between them (an invitation
 * UUID quoted in a service error, upper-cased, JSON-escaped or with a hidden character shown).
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let kept = text;
  for (const secret of secrets) {
    const letters = secret.match(/[0-9A-Za-z]/g) ?? [];
    kept = kept.split(secret).join("<redacted>").split(encodeURIComponent(secret)).join("<redacted>");
    if (letters.length >= SPELLING_MIN) kept = kept.replace(new RegExp(letters.join(GAP), "gi"), "<redacted>");
  }
  return kept;
}
