import { z } from "zod";
import { approveTransactionWrite } from "./approve/approve-transaction.js";
import { ethereumStakeWrite } from "./ethereum/ethereum-stake.js";
import { polkadotBondExtraWrite, polkadotRebondWrite, polkadotUnbondWrite } from "./polkadot/polkadot-amount-writes.js";
import { polkadotSetPayeeWrite } from "./polkadot/polkadot-set-payee.js";
import { polkadotWithdrawUnbondedWrite } from "./polkadot/polkadot-withdraw-unbonded.js";
import { sendWrite } from "./send/send.js";
import { solanaCreateStakeWrite } from "./solana/solana-create-stake.js";
import { solanaDeactivateStakeWrite } from "./solana/solana-deactivate-stake.js";
import { solanaDelegateStakeWrite } from "./solana/solana-delegate-stake.js";
import { solanaSplitDeactivateStakeWrite, solanaSplitStakeWrite } from "./solana/solana-split-writes.js";
import { solanaWithdrawStakeWrite } from "./solana/solana-withdraw-stake.js";
import type { AnyWriteSpec, WriteIdentity } from "./kit/write-spec.js";
import { WRITE_IDENTITIES } from "./registry-identities.js";

const SPECS = [
  sendWrite,
  approveTransactionWrite,
  solanaCreateStakeWrite,
  solanaDeactivateStakeWrite,
  solanaWithdrawStakeWrite,
  solanaDelegateStakeWrite,
  solanaSplitStakeWrite,
  solanaSplitDeactivateStakeWrite,
  polkadotBondExtraWrite,
  polkadotUnbondWrite,
  polkadotRebondWrite,
  polkadotWithdrawUnbondedWrite,
  polkadotSetPayeeWrite,
  ethereumStakeWrite,
] as const;

/** The schema of each spec, in the registry's order. */
type SchemasOf<Specs extends readonly { schema: unknown }[]> = { -readonly [I in keyof Specs]: Specs[I]["schema"] };

/** A write as a surface asks for it, amounts already in base units: the union of every spec's request. */
// The cast only restores the tuple type `map` loses; the values are the specs' own schemas.
export const WriteRequest = z.discriminatedUnion("kind", SPECS.map((spec) => spec.schema) as SchemasOf<typeof SPECS>);
export type WriteRequest = z.infer<typeof WriteRequest>;
export type WriteKind = WriteRequest["kind"];
export type WriteRequestOf<K extends WriteKind> = Extract<WriteRequest, { kind: K }>;

export const WRITE_KINDS: readonly WriteKind[] = SPECS.map((spec) => spec.kind);

const BY_KIND = new Map<string, AnyWriteSpec>(SPECS.map((spec) => [spec.kind, spec]));
const BY_TOOL = new Map<string, AnyWriteSpec>(SPECS.map((spec) => [spec.identity.tool, spec]));

/** The spec of a kind of write. */
export function writeSpec(kind: WriteKind): AnyWriteSpec {
  const spec = BY_KIND.get(kind);
  if (spec === undefined) throw new Error(`unreachable: no write spec for ${kind}`);
  return spec;
}

/** The spec a tool name stands for, or undefined when the tool is not a guarded write. */
export function writeSpecOfTool(tool: string): AnyWriteSpec | undefined {
  return BY_TOOL.get(tool);
}

/** How every surface names a kind of write (every kind has one: the record's type says so). */
const IDENTITIES: Record<WriteKind, WriteIdentity> = WRITE_IDENTITIES;

export function writeIdentity(kind: WriteKind): WriteIdentity {
  return IDENTITIES[kind];
}
