import type { Account } from "../../src/schemas/account.js";
import { localText } from "../../src/l10n/translate.js";
import { formatAmount } from "../../src/units/format-units.js";
import type { PlannedWrite } from "../../src/write-road/planned-write.js";
import { requestDigest } from "../../src/write-road/request-digest.js";
import type { SealedIntent } from "../../src/write-road/road-types.js";
import { SOL, SOLANA_RECIPIENT } from "../currency-fixtures.js";

/** A Solana account as the service lists it. */
export function solanaAccount(id: number, name: string): Account {
  return {
    id,
    name,
    address: SOLANA_RECIPIENT,
    balance: 10_000_000n,
    available_balance: 10_000_000n,
    currency: "solana_testnet",
    type: "Solana",
    coin_fields: { type: "Solana" },
  };
}

/** A send of 1,000,000 lamports from account 7 ("ops") as a plan holds it; nothing here is ever sent. */
export function plannedSend(over: Partial<PlannedWrite> = {}): PlannedWrite {
  const amount = formatAmount(1_000_000n, SOL);
  return {
    kind: "send",
    identity: { tool: "create_transaction", toolset: "transactions", title: "Send funds" },
    operator: "treasury-bot",
    person: null,
    request: { kind: "send", account: "ops", amount: 1_000_000n, recipient: SOLANA_RECIPIENT, speed: "NORMAL", correlation_id: "ref-1" },
    account: solanaAccount(7, "ops"),
    currency: SOL,
    call: { method: "POST", path: "/transactions", body: { account_name: "ops", amount: 1_000_000n, recipient: SOLANA_RECIPIENT } },
    correlation_id: "ref-1",
    amounts: { amount },
    destinations: [{ role: "recipient", value: SOLANA_RECIPIENT }],
    balances: [{ name: "available_balance", before: formatAmount(10_000_000n, SOL), after: formatAmount(9_000_000n, SOL) }],
    fee: { estimated: formatAmount(5000n, SOL) },
    dates: {},
    checks: [{ code: "AMOUNT_OK", severity: "info", message: "fine", facts: {} }],
    governance: null,
    proposed_max_fees: 10_000n,
    policy_amount: 1_000_000n,
    summary: localText("send 0.001 SOL"),
    send: () => Promise.reject(new Error("a fixture is never sent")),
    lostAnswer: { by: "approval", transaction_id: 1, request_id: 0 },
    ...over,
  };
}

/** The intent a dry run of the plan leaves (nonce and fingerprint stand-ins). */
export function sealedFor(plan: PlannedWrite, over: Partial<SealedIntent> = {}): SealedIntent {
  return {
    nonce: "0".repeat(32),
    fingerprint: "1".repeat(64),
    digest: requestDigest(plan),
    expires_at: 1_000_000,
    correlation_id: plan.correlation_id,
    max_fees: null,
    account_id: plan.account.id,
    transaction_id: plan.transaction?.id ?? null,
    tool: plan.identity.tool,
    person: null,
    ...over,
  };
}
