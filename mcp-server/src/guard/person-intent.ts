import { isCorrelationId } from "@custody/shared";
import type { ConfirmationTokens, TokenBinding } from "../server/confirmation-token.js";

const PURPOSE = "custody.person-intent.v1";

/**
 * In person mode the dry run's nonce is derived from its reference under the token secret, bound
 * to the tool, operator and person: the model is handed only the reference, and no answer carries
 * the nonce or a token, yet any replica that reads the secret names the same intent again.
 */
export function personNonce(tokens: ConfirmationTokens, reference: string, bound: TokenBinding): string {
  const mac = tokens.sign(PURPOSE, JSON.stringify([reference, bound.tool, bound.operator, bound.person]));
  return Buffer.from(mac, "base64url").toString("hex").slice(0, 32);
}

/** Why `reference` cannot name a dry run, or null. */
export function referenceProblem(reference: string): string | null {
  return isCorrelationId(reference) ? null : "reference: must be the dry run's reference (cw- and 20 hex digits), as its answer gave it";
}
