import type { Account } from "../schemas/account.js";
import type { Currency } from "../schemas/currency.js";
import type { SolanaStake } from "../schemas/solana-stake.js";
import type { Transaction } from "../schemas/transaction.js";
import type { Finding } from "../rules/finding.js";
import type { GovernanceExpectation } from "../governance/rule-evaluation.js";
import type { PolicySubject } from "../policy/policy-checks.js";
import type { WriteCall } from "./planned-write.js";

/** What a kind-specific planner produces; planWrite adds governance wording, policy and presentation. */
export interface WriteDraft {
  account: Account;
  currency: Currency;
  call: WriteCall;
  checks: Finding[];
  /** Amounts to show, in base units, by name (amount, max_fees, available_balance, ...). */
  amounts: Record<string, bigint>;
  governance: GovernanceExpectation | null;
  policy: Omit<PolicySubject, "currency" | "network" | "spentLast24h">;
  proposed_max_fees: bigint | null;
  summary: string;
  stake?: SolanaStake;
  transaction?: Transaction;
}
