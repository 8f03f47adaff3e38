import { checkPolkadotOperation, hasBlocking, type PolkadotOperation } from "@custody/shared";
import type { Tx } from "../../context.js";
import { bondExtra, polkadotBalances, polkadotStaking, rebond, requireLedger, setPayee, unbond, withdrawUnbonded } from "../../networks/polkadot-ledger.js";
import type { AccountRow, PolkadotLedger, TransactionRow } from "../../store/state-types.js";
import { OK, refused, type BroadcastOutcome } from "./broadcast-outcome.js";

function operationOf(row: TransactionRow): PolkadotOperation {
  const effect = row.effect;
  if (effect.kind !== "polkadot") throw new Error(`transaction ${row.id} is not a Polkadot staking operation`);
  switch (effect.op) {
    case "BONDEXTRA":
    case "UNBOND":
    case "REBOND":
      return { type: effect.op, amount: row.amount };
    case "WITHDRAWUNBONDED":
      return { type: "WITHDRAWUNBONDED" };
    case "SETPAYEE":
      return { type: "SETPAYEE", payee: effect.payee ?? "" };
  }
}

function applied(ledger: PolkadotLedger, op: PolkadotOperation, now: number): PolkadotLedger {
  switch (op.type) {
    case "BONDEXTRA":
      return bondExtra(ledger, op.amount);
    case "UNBOND":
      return unbond(ledger, op.amount, now);
    case "REBOND":
      return rebond(ledger, op.amount);
    case "WITHDRAWUNBONDED":
      return withdrawUnbonded(ledger, now);
    case "SETPAYEE":
      return setPayee(ledger, op.payee);
  }
}

/**
 * A Polkadot staking operation, checked against the balances at broadcast with the usage
 * rules (point 4): one that breaks a rule fails and moves nothing. WITHDRAWUNBONDED breaks
 * none: with total_unbonded 0 "the transaction does nothing", so it is submitted and moves nothing.
 */
export function applyPolkadot(tx: Tx, row: TransactionRow, account: AccountRow): BroadcastOutcome {
  const op = operationOf(row);
  const findings = op.type === "WITHDRAWUNBONDED" ? [] : checkPolkadotOperation(op, polkadotBalances(account, tx.now), polkadotStaking(account));
  if (hasBlocking(findings)) {
    return refused(
      findings
        .filter((item) => item.severity === "block")
        .map((item) => item.message)
        .join("; "),
    );
  }
  tx.put("accounts", account.id, { ...account, polkadot: applied(requireLedger(account), op, tx.now) });
  return OK;
}
