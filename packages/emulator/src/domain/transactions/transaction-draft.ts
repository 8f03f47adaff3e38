import type { Note } from "@custody/shared";
import type { AccountRow, RuleKind, TransactionEffect } from "../../store/state-types.js";

/** A transaction checked and ready to be created. */
export interface TransactionDraft {
  account: AccountRow;
  /** The rule that governs it: creation and approvals. */
  rule: RuleKind;
  /** Other rules that must list the creator too (guided Solana staking: the transaction rule). */
  alsoCreatorIn: RuleKind[];
  type: string;
  amount: bigint;
  maxFees: bigint;
  /** What the network will charge (at most maxFees). */
  feeDue: bigint;
  /** What the transaction holds of the account's funds until it ends. */
  reserve: bigint;
  recipient: string;
  speed: string;
  notes: Note[];
  coinFields: Record<string, unknown> | null;
  effect: TransactionEffect;
}
