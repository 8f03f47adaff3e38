import { z } from "zod";
import { BaseUnitsInteger, Timestamp } from "./primitives.js";

export const SolanaStakeState = z.enum(["activating", "activated", "deactivating", "deactivated"]);
export type SolanaStakeState = z.infer<typeof SolanaStakeState>;

export const SolanaStakeAction = z.enum(["deactivate", "withdraw", "delegate", "split", "split_deactivate"]);
export type SolanaStakeAction = z.infer<typeof SolanaStakeAction>;

/** The transaction type the service gives each stake action. */
export const SOLANA_STAKE_ACTION_TYPES: Record<SolanaStakeAction, string> = {
  deactivate: "STAKE_DEACTIVATE",
  withdraw: "STAKE_WITHDRAW",
  delegate: "STAKE_DELEGATE",
  split: "STAKE_SPLIT",
  split_deactivate: "STAKE_SPLIT_DEACTIVATE",
};

/** Solana's "no epoch" (u64::MAX): the deactivation_epoch of a stake that was never deactivated. */
export const SOLANA_EPOCH_NONE = 18_446_744_073_709_551_615n;

const EPOCH_RULE = 'must be an epoch: a non-negative JSON integer, at most 18446744073709551615 (u64::MAX, Solana\'s "none")';
const EPOCH_DIGITS = /^(0|[1-9][0-9]*)$/;

function shownEpoch(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}...` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "an array" : "an object";
  return String(value);
}

/** An epoch as it may arrive: a safe JSON integer, the digit string parseJsonExact makes of a larger one, or a bigint. */
const RawEpoch = z
  .union([z.number(), z.string(), z.bigint()], { error: (issue) => `${EPOCH_RULE}, got ${shownEpoch(issue.input)}` })
  .superRefine((value, ctx) => {
    const ok =
      typeof value === "number"
        ? Number.isSafeInteger(value) && value >= 0
        : typeof value === "string"
          ? EPOCH_DIGITS.test(value) && BigInt(value) <= SOLANA_EPOCH_NONE
          : value >= 0n && value <= SOLANA_EPOCH_NONE;
    if (!ok) ctx.addIssue({ code: "custom", message: `${EPOCH_RULE}, got ${shownEpoch(value)}` });
  });

/**
 * A Solana epoch (a u64): a JSON integer on the wire, a bigint in code, so u64::MAX (SOLANA_EPOCH_NONE)
 * stays exact. Written back as a JSON integer (stringifyJsonExact).
 */
export const SolanaEpoch = z.codec(RawEpoch, z.bigint().nonnegative().max(SOLANA_EPOCH_NONE), {
  decode: (value) => (typeof value === "bigint" ? value : BigInt(value)),
  encode: (value) => value,
});

/**
 * The epoch a stake field names, or null when it names none: u64::MAX as Solana writes it for a
 * stake never deactivated, or null as older data wrote it.
 */
export function epochOrNone(epoch: bigint | null): bigint | null {
  return epoch === null || epoch === SOLANA_EPOCH_NONE ? null : epoch;
}

export const SolanaBlockchainState = z.looseObject({
  status: SolanaStakeState,
  /** A JSON integer (u64); null is accepted from older data. */
  activation_epoch: SolanaEpoch.nullable(),
  /** A JSON integer (u64): SOLANA_EPOCH_NONE (u64::MAX) until the stake is deactivated; null is accepted from older data. */
  deactivation_epoch: SolanaEpoch.nullable(),
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
