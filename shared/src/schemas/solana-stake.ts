import { z } from "zod";
import { BaseUnitsInteger, Timestamp } from "./primitives.js";

export const SolanaStakeState = z.enum(["activating", "activated", "deactivating", "deactivated"]);
export type SolanaStakeState = z.infer<typeof SolanaStakeState>;

export const SolanaStakeAction = z.enum(["deactivate", "withdraw", "delegate", "split", "split_deactivate"]);
export type SolanaStakeAction = z.infer<typeof SolanaStakeAction>;

export const SolanaBlockchainState = z.looseObject({
  status: SolanaStakeState,
  activation_epoch: z.int().nullable(),
  deactivation_epoch: z.int().nullable(),
  activation_date: Timestamp.nullable().optional(),
  deactivation_date: Timestamp.nullable().optional(),
  active_balance: BaseUnitsInteger,
  inactive_balance: BaseUnitsInteger,
  total_balance: BaseUnitsInteger,
  rent_exempt_reserve: BaseUnitsInteger,
  pub_key: z.string(),
  validator_address: z.string(),
});
export type SolanaBlockchainState = z.infer<typeof SolanaBlockchainState>;

export const SolanaStake = z.looseObject({
  uid: z.string().min(1),
  account_id: z.int(),
  account_name: z.string(),
  currency: z.string(),
  created_on: Timestamp,
  status: z.string(),
  total_reward: BaseUnitsInteger,
  /** The actions allowed now; each element's last path segment names the action (e.g. ".../actions/delegate"). */
  actions: z.array(z.string()),
  blockchain_state: SolanaBlockchainState,
});
export type SolanaStake = z.infer<typeof SolanaStake>;
export type SolanaStakeWire = z.input<typeof SolanaStake>;

export const SolanaStakeList = z.array(SolanaStake);

/** True when the stake's `actions` lists the action (matched on the element's last segment). */
export function stakeAllows(stake: Pick<SolanaStake, "actions">, action: SolanaStakeAction): boolean {
  return stake.actions.some((element) => element === action || element.endsWith(`/${action}`));
}

/** POST /solana/accounts/{id}/stakes: amount a JSON integer of base units. */
export const CreateSolanaStakeRequest = z.looseObject({
  amount: BaseUnitsInteger,
  validator: z.string().min(1, { message: "must be a validator address" }),
});
export type CreateSolanaStakeRequest = z.infer<typeof CreateSolanaStakeRequest>;

export const DelegateSolanaStakeRequest = z.looseObject({
  validator: z.string().min(1, { message: "must be a validator address" }),
});
export type DelegateSolanaStakeRequest = z.infer<typeof DelegateSolanaStakeRequest>;

export const SplitSolanaStakeRequest = z.looseObject({ amount: BaseUnitsInteger });
export type SplitSolanaStakeRequest = z.infer<typeof SplitSolanaStakeRequest>;

/** Lamports a stake account must keep to be rent-exempt (200 bytes of account data). */
export const SOLANA_STAKE_RENT_EXEMPT_RESERVE = 2_282_880n;
