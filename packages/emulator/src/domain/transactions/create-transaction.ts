import { evaluateRule } from "@custody/shared";
import type { Tx } from "../../context.js";
import { REQUEST_LIFETIME_MS } from "../../networks/network-constants.js";
import type { RequestRow, TransactionRow, UserRow } from "../../store/state-types.js";
import { requireCreator } from "./governance-check.js";
import { withEntry } from "./history-entry.js";
import type { TransactionDraft } from "./transaction-draft.js";

/**
 * Creates the transaction and its CREATE_TRANSACTION request. The creator's creation counts as
 * their approval in each step that lists them: when that satisfies every step the transaction
 * is APPROVED at once, else PENDING_APPROVAL. Its reserve is held from the account.
 */
export function createTransaction(tx: Tx, operator: UserRow, draft: TransactionDraft): TransactionRow {
  const rule = requireCreator(draft.account, draft.rule, operator);
  for (const other of draft.alsoCreatorIn) requireCreator(draft.account, other, operator);
  const account = tx.get("accounts", draft.account.id) ?? draft.account;
  const id = tx.nextId("transaction");
  const requestId = tx.nextId("request");
  const approvals = [{ username: operator.username, is_api: true, approved_on_ms: tx.now }];
  const approved = evaluateRule(rule, [operator.username]).is_satisfied;
  const status = approved ? "APPROVED" : "PENDING_APPROVAL";
  const blank: RequestRow = {
    id: requestId,
    type: "CREATE_TRANSACTION",
    created_by: operator.id,
    created_on_ms: tx.now,
    expired_at_ms: tx.now + REQUEST_LIFETIME_MS,
    rule: draft.rule,
    steps: rule.steps,
    approvals,
    status,
    transaction_id: id,
    user_id: null,
    rejected_by: null,
    entries: [],
  };
  tx.put("requests", requestId, withEntry(tx, blank, status, operator.id));
  const row: TransactionRow = {
    id,
    account_id: account.id,
    request_id: requestId,
    type: draft.type,
    status,
    amount: draft.amount,
    max_fees: draft.maxFees,
    fee_due: draft.feeDue,
    fees: null,
    reserved: draft.reserve,
    recipient: draft.recipient,
    speed: draft.speed,
    notes: draft.notes,
    coin_fields: draft.coinFields,
    created_by: operator.id,
    created_on_ms: tx.now,
    approved_on_ms: approved ? tx.now : null,
    signed_on_ms: null,
    broadcast_on_ms: null,
    tx_hash: null,
    failure_reason: null,
    effect: draft.effect,
  };
  tx.put("transactions", id, row);
  if (draft.reserve > 0n) tx.put("accounts", account.id, { ...account, in_flight: account.in_flight + draft.reserve });
  return row;
}
