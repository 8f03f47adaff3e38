import { resolveAccount, type Account, type Currency } from "@custody/shared";
import { z } from "zod";
import type { ToolCall } from "./tool-definition.js";

/** One field for an account: its id, or its exact name (a string of digits is taken as an id). */
export const AccountInput = z.union([z.number(), z.string()]).describe("Account id or exact name");

/** The named account, fetched fresh, with its currency. */
export async function accountWithCurrency(call: ToolCall, reference: number | string): Promise<{ account: Account; currency: Currency }> {
  if (typeof reference === "number" ? !(Number.isSafeInteger(reference) && reference > 0) : reference.trim() === "") {
    throw new Error(`account: must be a positive whole account id or an account's exact name, got ${JSON.stringify(reference)}`);
  }
  const account = await resolveAccount(call.ctx.client, reference, { signal: call.signal });
  const currency = await call.ctx.currencies.get(account.currency, call.signal);
  return { account, currency };
}
