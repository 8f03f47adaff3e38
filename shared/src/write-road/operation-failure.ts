import { isAmbiguous } from "./send-once.js";

/**
 * The audit event of a call outside the road that changes something at the service and failed:
 * `ambiguous` when its answer was lost (it may have happened), `failed` otherwise.
 */
export function failureEvent(error: unknown): "ambiguous" | "failed" {
  return isAmbiguous(error) ? "ambiguous" : "failed";
}

/** The text with each secret, as given and as it appears URL-encoded in a path, replaced: for an audit record. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let kept = text;
  for (const secret of secrets) kept = kept.split(secret).join("<redacted>").split(encodeURIComponent(secret)).join("<redacted>");
  return kept;
}
