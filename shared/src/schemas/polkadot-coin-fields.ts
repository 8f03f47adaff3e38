import { z } from "zod";
import { BaseUnitsInteger } from "./primitives.js";

export const UnbondingEntry = z.looseObject({
  amount: BaseUnitsInteger,
  /** Seconds left until the entry is unbonded; 0 in `unbonded`. */
  waiting_time: z.int().nonnegative(),
});
export type UnbondingEntry = z.infer<typeof UnbondingEntry>;

const frozenForms = <T extends { fee_frozen?: unknown; misc_frozen?: unknown; frozen?: unknown }>(value: T, ctx: z.RefinementCtx) => {
  const legacy = value.fee_frozen !== undefined || value.misc_frozen !== undefined;
  const legacyComplete = value.fee_frozen !== undefined && value.misc_frozen !== undefined;
  if (legacy && !legacyComplete) {
    ctx.addIssue({ code: "custom", message: "fee_frozen and misc_frozen go together: give both, or the single frozen field" });
  }
  if (!legacy && value.frozen === undefined) {
    ctx.addIssue({ code: "custom", message: "must carry the frozen balance: fee_frozen and misc_frozen (before Jul 2023) or frozen" });
  }
};

/** The balance fields of the anonymous proxy and of the account (common part). */
const BalanceCore = {
  available: BaseUnitsInteger,
  bonded: BaseUnitsInteger,
  free: BaseUnitsInteger,
  reserved: BaseUnitsInteger,
  total: BaseUnitsInteger,
  fee_frozen: BaseUnitsInteger.optional(),
  misc_frozen: BaseUnitsInteger.optional(),
  frozen: BaseUnitsInteger.optional(),
};

/**
 * Polkadot balances, in either form: `fee_frozen` and `misc_frozen`, or (after the
 * Jul 2023 release) the single `frozen`.
 */
export const PolkadotBalances = z
  .looseObject({
    ...BalanceCore,
    total_unbonded: BaseUnitsInteger,
    total_unbonding: BaseUnitsInteger,
    unbonded: z.array(UnbondingEntry),
    unbonding: z.array(UnbondingEntry),
  })
  .superRefine(frozenForms);
export type PolkadotBalances = z.infer<typeof PolkadotBalances>;

export const PolkadotStaking = z.looseObject({
  controller_address: z.string(),
  proxies: z.array(z.string()),
  rewards_destination: z.string(),
});
export type PolkadotStaking = z.infer<typeof PolkadotStaking>;

/**
 * The account's anonymous (pure) proxy: its address, its own balances (base-unit integers, either
 * frozen form, like the account's), the block and extrinsic that created it, its disambiguation
 * index and proxy kind (e.g. Staking).
 */
export const AnonymousProxy = z.looseObject({
  address: z.string(),
  balances: z.looseObject(BalanceCore).superRefine(frozenForms),
  block_height: z.int().nonnegative(),
  /** When it was created: a timestamp, or a number as some indexers write it; the spec gives no format. */
  created_at: z.union([z.string(), z.int()]),
  ext_index: z.int().nonnegative(),
  index: z.int().nonnegative(),
  is_controller: z.boolean(),
  is_main: z.boolean(),
  kind: z.string(),
});
export type AnonymousProxy = z.infer<typeof AnonymousProxy>;

export const PolkadotCoinFields = z.looseObject({
  type: z.literal("Polkadot"),
  balances: PolkadotBalances,
  staking: PolkadotStaking,
  anonymous_proxy: AnonymousProxy.nullable().optional(),
});
export type PolkadotCoinFields = z.infer<typeof PolkadotCoinFields>;

/** The frozen balance whichever form the service used. */
export function polkadotFrozen(balances: Pick<PolkadotBalances, "frozen" | "fee_frozen" | "misc_frozen">): bigint {
  if (balances.frozen !== undefined) return balances.frozen;
  const fee = balances.fee_frozen ?? 0n;
  const misc = balances.misc_frozen ?? 0n;
  return fee > misc ? fee : misc;
}
