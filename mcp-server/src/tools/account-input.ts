import { resolveAccount, type Account, type Currency, boundedText, INPUT_LIMITS } from "@custody/shared";
import type { ToolCall } from "../server/tool-call.js";

/**
 * One field for an account, one type: a string, the account's id in digits ("42") or its exact name.
 * Digits that are no account's name are taken as an id; "#42" is always the id (for digits that
 * are one account's id and another's name, which are refused as ambiguous). The server instructions
 * say so once, not each tool's schema: about 1,200 bytes of tools/list a model reads (issue 21).
 */
export const AccountInput = boundedText(INPUT_LIMITS.account_name, 'a string, the account\'s id in digits ("42") or its exact name');

/** The named account, fetched fresh, with its currency. */
export async function accountWithCurrency(call: ToolCall, reference: string): Promise<{ account: Account; currency: Currency }> {
  if (reference.trim() === "") throw new Error(`account: must be an account's id or exact name, got ${JSON.stringify(reference)}`);
  const account = await resolveAccount(call.ctx.client, reference, { signal: call.signal });
  const currency = await call.ctx.currencies.get(account.currency, call.signal);
  return { account, currency };
}
