import { resolveAccount, type Account, type Currency, boundedText, INPUT_LIMITS } from "@custody/shared";
import { z } from "zod";
import type { ToolCall } from "./tool-definition.js";

/**
 * One field for an account: its id (a number), or its exact name (a string; digits that are no
 * account's name are taken as an id, and refused when they are one account's id and another's
 * name). Undescribed in the schema: the server instructions say it once for every tool.
 */
export const AccountInput = z.union([z.number(), boundedText(INPUT_LIMITS.account_name)]);

/** The named account, fetched fresh, with its currency. */
export async function accountWithCurrency(call: ToolCall, reference: number | string): Promise<{ account: Account; currency: Currency }> {
  if (typeof reference === "number" ? !(Number.isSafeInteger(reference) && reference > 0) : reference.trim() === "") {
    throw new Error(`account: must be a positive whole account id or an account's exact name, got ${JSON.stringify(reference)}`);
  }
  const account = await resolveAccount(call.ctx.client, reference, { signal: call.signal });
  const currency = await call.ctx.currencies.get(account.currency, call.signal);
  return { account, currency };
}
