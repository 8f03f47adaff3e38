import { z } from "zod";
import { Speed } from "../schemas/transaction-request.js";
import { WriteNote } from "./write-note.js";

/** An account named by its integer id or by its name. */
export const AccountReference = z.union([z.int().positive(), z.string().min(1)]);
export type AccountReference = z.infer<typeof AccountReference>;

const BaseAmount = z.bigint().nonnegative();
const OnAccount = { account: AccountReference, correlation_id: z.string().optional() };
const OnStake = { ...OnAccount, stake_uid: z.string().min(1) };

/**
 * A write as a surface (MCP tool, VS Code command) asks for it, amounts already in base units.
 * `correlation_id` is set when confirming, to rebuild exactly the request that was dry-run.
 */
export const WriteRequest = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("send"), ...OnAccount, amount: BaseAmount, max_fees: BaseAmount.optional(), recipient: z.string().min(1), speed: Speed.default("NORMAL"), note: WriteNote.optional() }),
  z.object({ kind: z.literal("approve_transaction"), transaction_id: z.int().positive(), correlation_id: z.string().optional() }),
  z.object({ kind: z.literal("solana_create_stake"), ...OnAccount, amount: BaseAmount, validator: z.string().min(1) }),
  z.object({ kind: z.literal("solana_deactivate_stake"), ...OnStake }),
  z.object({ kind: z.literal("solana_withdraw_stake"), ...OnStake }),
  z.object({ kind: z.literal("solana_delegate_stake"), ...OnStake, validator: z.string().min(1) }),
  z.object({ kind: z.literal("solana_split_stake"), ...OnStake, amount: BaseAmount }),
  z.object({ kind: z.literal("solana_split_deactivate_stake"), ...OnStake, amount: BaseAmount }),
  z.object({ kind: z.literal("polkadot_bond_extra"), ...OnAccount, amount: BaseAmount, note: WriteNote.optional() }),
  z.object({ kind: z.literal("polkadot_unbond"), ...OnAccount, amount: BaseAmount, note: WriteNote.optional() }),
  z.object({ kind: z.literal("polkadot_rebond"), ...OnAccount, amount: BaseAmount, note: WriteNote.optional() }),
  z.object({ kind: z.literal("polkadot_withdraw_unbonded"), ...OnAccount, note: WriteNote.optional() }),
  z.object({ kind: z.literal("polkadot_set_payee"), ...OnAccount, payee: z.string().min(1), note: WriteNote.optional() }),
  z.object({
    kind: z.literal("ethereum_stake"),
    ...OnAccount,
    amount: BaseAmount,
    max_fees: BaseAmount.optional(),
    contract: z.string().min(1),
    contract_data: z.string().min(1),
    speed: Speed.default("NORMAL"),
    note: WriteNote.optional(),
  }),
]);
export type WriteRequest = z.infer<typeof WriteRequest>;
export type WriteKind = WriteRequest["kind"];
export type WriteRequestOf<K extends WriteKind> = Extract<WriteRequest, { kind: K }>;

export const WRITE_KINDS = WriteRequest.options.map((option) => option.shape.kind.value) as readonly WriteKind[];
