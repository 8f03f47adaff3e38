import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { ConfirmationTokens } from "../server/confirmation-token.js";
import type { PkceFlow } from "../server/server-context.js";
import { cookieOf, mintSigned, openSigned, setCookie } from "./signed-cookie.js";

const FLOW_COOKIE = "custody_confirm_sign_in";
const PURPOSE = "custody.confirm-sign-in.v1";
/** A sign-in at the issuer (a password, a second factor) finishes well within this, or starts again. */
const FLOW_SECONDS = 600;

/** One sign-in under way: its PKCE verifier, its state, and the page it returns to. */
const SignInFlow = z.object({
  verifier: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  state: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  page: z.string().max(600),
});
export type SignInFlow = z.infer<typeof SignInFlow>;

export function newFlow(page: string): SignInFlow {
  return { verifier: randomBytes(32).toString("base64url"), state: randomBytes(16).toString("base64url"), page };
}

/** RFC 7636's S256 challenge of the verifier. */
export function challengeOf(flow: PkceFlow): string {
  return createHash("sha256").update(flow.verifier).digest("base64url");
}

/**
 * The flow kept by the person's browser, not by this process (any replica finishes the callback):
 * signed under the token secret, HttpOnly, SameSite=Lax (sent on the issuer's redirect back, a
 * top-level navigation from another site), Secure behind TLS, for FLOW_SECONDS.
 */
export function flowCookie(tokens: ConfirmationTokens, flow: SignInFlow, now: number, secure: boolean): string {
  return setCookie(FLOW_COOKIE, mintSigned(tokens, PURPOSE, flow, now + FLOW_SECONDS * 1000), { maxAgeSeconds: FLOW_SECONDS, sameSite: "Lax", secure });
}

/** Drops the flow once its callback was answered: a code is exchanged once. */
export function spentFlowCookie(secure: boolean): string {
  return setCookie(FLOW_COOKIE, "", { maxAgeSeconds: 0, sameSite: "Lax", secure });
}

export function openFlow(tokens: ConfirmationTokens, req: IncomingMessage, now: number): SignInFlow | null {
  return openSigned(tokens, PURPOSE, cookieOf(req, FLOW_COOKIE), SignInFlow, now);
}
