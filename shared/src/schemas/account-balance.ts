import { z } from "zod";
import { PolkadotBalances } from "./polkadot-coin-fields.js";
import { BaseUnitsString } from "./primitives.js";

/**
 * GET /accounts/{id}/balance: always the balances of the account object, plus the
 * network-specific ones (Polkadot `balances`; Solana `staked_balance`).
 */
export const AccountBalance = z.looseObject({
  account_id: z.int(),
  currency: z.string(),
  balance: BaseUnitsString,
  available_balance: BaseUnitsString,
  balances: PolkadotBalances.optional(),
  staked_balance: BaseUnitsString.optional(),
});
export type AccountBalance = z.infer<typeof AccountBalance>;

/** GET /accounts/{id}/sync: the body is not shown in the spec; the emulator answers this. */
export const SyncResult = z.looseObject({
  success: z.boolean(),
  account_id: z.int().optional(),
});
export type SyncResult = z.infer<typeof SyncResult>;
