import { isCorrelationId } from "@custody/shared";
import { z } from "zod";
import type { ConfirmationTokens, TokenBinding } from "../server/confirmation-token.js";

/** Where a server serves its confirmation pages: the page id follows. */
export const CONFIRM_PATH = "/confirm/";

const PREFIX = "p1";
const ID_PURPOSE = "custody.confirm-page.v1";
const SECRET_PURPOSE = "custody.confirm-page-secret.v1";
/** A page id longer than this is not one this server minted: refused before it is decoded. */
const MAX_ID_CHARS = 600;

/** What a confirmation page is for: the dry run (its reference) and who may confirm it. */
const PageTarget = z.strictObject({
  reference: z.string().refine(isCorrelationId),
  tool: z.string().max(64),
  operator: z.string().max(128),
  person: z.string().max(256).nullable(),
});
export type PageTarget = z.infer<typeof PageTarget> & TokenBinding;

/**
 * The page's id in its link: `p1.<base64url JSON>.<HMAC>` under the token secret, so any replica
 * serves it and none remembers it. The id is in the answer the model reads; what confirms is the
 * page's secret (pageSecret), which only the person's link (opened in their browser) carries.
 */
export function pageId(tokens: ConfirmationTokens, target: PageTarget): string {
  const body = Buffer.from(JSON.stringify({ reference: target.reference, tool: target.tool, operator: target.operator, person: target.person })).toString(
    "base64url",
  );
  return `${PREFIX}.${body}.${tokens.sign(ID_PURPOSE, body)}`;
}

/** The target of a page id this server minted, or null. */
export function openPageId(tokens: ConfirmationTokens, id: string): PageTarget | null {
  if (id.length > MAX_ID_CHARS) return null;
  const [prefix, body, mac, extra] = id.split(".");
  if (prefix !== PREFIX || body === undefined || mac === undefined || extra !== undefined || !tokens.signed(ID_PURPOSE, body, mac)) return null;
  try {
    const parsed = PageTarget.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The person's key to a page (`?key=` of the link opened for them) and the hidden field its form posts back: bound to the id, never in an answer. */
export function pageSecret(tokens: ConfirmationTokens, id: string): string {
  return tokens.sign(SECRET_PURPOSE, id);
}

export function isPageSecret(tokens: ConfirmationTokens, id: string, secret: string): boolean {
  return secret.length < 100 && tokens.signed(SECRET_PURPOSE, id, secret);
}
