import { buildBondExtraRequest, buildRebondRequest, buildSetPayeeRequest, buildUnbondRequest, buildWithdrawUnbondedRequest } from "../requests/polkadot-staking-requests.js";
import { checkPolkadotFixedValues, checkPolkadotOperation, type PolkadotOperation } from "../rules/polkadot-rules.js";
import { isPolkadotAccount } from "../schemas/account.js";
import type { Note } from "../schemas/primitives.js";
import type { TransactionRequest } from "../schemas/transaction-request.js";
import { requireNetwork } from "./account-kind-error.js";
import { describeAmount, governanceFor, loadAccount, type PlanContext } from "./plan-context.js";
import type { WriteDraft } from "./write-draft.js";
import type { WriteRequestOf } from "./write-request.js";

type PolkadotKind = "polkadot_bond_extra" | "polkadot_unbond" | "polkadot_rebond" | "polkadot_withdraw_unbonded" | "polkadot_set_payee";

/** Polkadot staking: POST /transactions with the operation's coin_fields and the fixed values. */
export async function planPolkadot(ctx: PlanContext, request: WriteRequestOf<PolkadotKind>, note: Note): Promise<WriteDraft> {
  const { account, currency } = await loadAccount(ctx, request.account);
  requireNetwork(account, request.kind.replace(/_/g, " "), "Polkadot");
  if (!isPolkadotAccount(account)) throw new Error("unreachable: a Polkadot account without Polkadot coin_fields");
  const common = { account_name: account.name, currency, note };
  let operation: PolkadotOperation;
  let body: TransactionRequest;
  let summary: string;
  switch (request.kind) {
    case "polkadot_bond_extra":
      operation = { type: "BONDEXTRA", amount: request.amount };
      body = buildBondExtraRequest({ ...common, amount: request.amount });
      summary = `bond ${describeAmount(request.amount, currency)} more from the available balance of ${account.name}`;
      break;
    case "polkadot_unbond":
      operation = { type: "UNBOND", amount: request.amount };
      body = buildUnbondRequest({ ...common, amount: request.amount });
      summary = `unbond ${describeAmount(request.amount, currency)} of ${account.name}; it becomes available to withdraw after 28 days`;
      break;
    case "polkadot_rebond":
      operation = { type: "REBOND", amount: request.amount };
      body = buildRebondRequest({ ...common, amount: request.amount });
      summary = `rebond ${describeAmount(request.amount, currency)} of ${account.name} from unbonding or unbonded funds`;
      break;
    case "polkadot_withdraw_unbonded":
      operation = { type: "WITHDRAWUNBONDED" };
      body = buildWithdrawUnbondedRequest(common);
      summary = `withdraw the unbonded ${describeAmount(account.coin_fields.balances.total_unbonded, currency)} of ${account.name} to its available balance`;
      break;
    case "polkadot_set_payee":
      operation = { type: "SETPAYEE", payee: request.payee };
      body = buildSetPayeeRequest({ ...common, payee: request.payee });
      summary = `set the rewards destination of ${account.name} from ${account.coin_fields.staking.rewards_destination} to ${request.payee}`;
      break;
  }
  const { balances, staking } = account.coin_fields;
  const governance = governanceFor(account, "transaction", ctx.operator);
  const moved = "amount" in operation ? operation.amount : undefined;
  return {
    account,
    currency,
    call: { method: "POST", path: "/transactions", body },
    checks: [...checkPolkadotOperation(operation, balances, staking), ...checkPolkadotFixedValues(body), ...governance.findings],
    amounts: {
      ...(moved === undefined ? {} : { amount: moved }),
      available: balances.available,
      bonded: balances.bonded,
      total_unbonding: balances.total_unbonding,
      total_unbonded: balances.total_unbonded,
    },
    governance: governance.expectation,
    policy: { amount: moved },
    proposed_max_fees: null,
    summary,
  };
}
