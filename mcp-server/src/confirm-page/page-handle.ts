import { isCorrelationId } from "@custody/shared";
import { z } from "zod";
import type { ConfirmationTokens, TokenBinding } from "../server/confirmation-token.js";
import { openHandle, sealHandle, type SealedKind } from "../server/sealed-handle.js";

/** Where a server serves its confirmation pages: the page id follows. */
export const CONFIRM_PATH = "/confirm/";

const SECRET_PURPOSE = "custody.confirm-page-secret.v1";

/** What a confirmation page is for: the dry run (its reference) and who may confirm it. */
const PageTarget = z.strictObject({
  reference: z.string().refine(isCorrelationId),
  tool: z.string().max(64),
  operator: z.string().max(128),
  person: z.string().max(256).nullable(),
});
export type PageTarget = z.infer<typeof PageTarget> & TokenBinding;

/** A page id longer than 600 characters is not one this server minted: refused before it is decoded. */
const PAGE_ID: SealedKind<PageTarget> = { prefix: "p1", purpose: "custody.confirm-page.v1", maxChars: 600, payload: PageTarget };

/**
 * The page's id in its link: `p1.<base64url JSON>.<HMAC>` under the token secret, so any replica
 * serves it and none remembers it. The id is in the answer the model reads; what confirms is the
 * page's secret (pageSecret), which only the person's link (opened in their browser) carries.
 */
export function pageId(tokens: ConfirmationTokens, target: PageTarget): string {
  return sealHandle(tokens, PAGE_ID, { reference: target.reference, tool: target.tool, operator: target.operator, person: target.person });
}

/** The target of a page id this server minted, or null. */
export function openPageId(tokens: ConfirmationTokens, id: string): PageTarget | null {
  const opened = openHandle(tokens, PAGE_ID, id);
  return opened.ok ? opened.payload : null;
}

/** The person's key to a page (`?key=` of the link opened for them) and the hidden field its form posts back: bound to the id, never in an answer. */
export function pageSecret(tokens: ConfirmationTokens, id: string): string {
  return tokens.sign(SECRET_PURPOSE, id);
}

export function isPageSecret(tokens: ConfirmationTokens, id: string, secret: string): boolean {
  return secret.length < 100 && tokens.signed(SECRET_PURPOSE, id, secret);
}
