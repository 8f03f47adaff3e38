import { buildBondExtraRequest, buildRebondRequest, buildSetPayeeRequest, buildUnbondRequest, buildWithdrawUnbondedRequest } from "../requests/polkadot-staking-requests.js";
import { checkPolkadotFixedValues, checkPolkadotOperation, type PolkadotOperation } from "../rules/polkadot-rules.js";
import { checkRewardsDestination } from "../rules/rewards-destination-rule.js";
import type { Finding } from "../rules/finding.js";
import { isPolkadotAccount, type Account } from "../schemas/account.js";
import { isRewardsDestination } from "../schemas/coin-fields-request.js";
import type { Currency } from "../schemas/currency.js";
import type { PolkadotBalances } from "../schemas/polkadot-coin-fields.js";
import type { Note } from "../schemas/primitives.js";
import type { Transaction } from "../schemas/transaction.js";
import type { TransactionRequest } from "../schemas/transaction-request.js";
import { requireNetwork } from "./account-kind-error.js";
import { inFlightFinding, type InFlightSpec } from "./in-flight-check.js";
import { withInputFieldNames } from "./input-field-names.js";
import { describeAmount, governanceFor, loadAccount, type PlanContext } from "./plan-context.js";
import { accountAfterUnfinished, operationOf, type UnfinishedListing } from "./unfinished-transactions.js";
import type { WriteDraft } from "./write-draft.js";
import type { WriteRequestOf } from "./write-request.js";

type PolkadotKind = "polkadot_bond_extra" | "polkadot_unbond" | "polkadot_rebond" | "polkadot_withdraw_unbonded" | "polkadot_set_payee";
type AmountOperation = Extract<PolkadotOperation, { amount: bigint }>;

/** The builder names the payee by its place in the body; the write request names it payee. */
const BUILDER_FIELDS = { "coin_fields.payee": "payee" };

/**
 * The body of a SETPAYEE. A destination the request schema refuses is blocked by
 * checkRewardsDestination, naming the allowed ones; its body is shown as it would be, never sent.
 */
function setPayeeBody(common: { account_name: string; currency: Currency; note: Note }, payee: string): TransactionRequest {
  if (isRewardsDestination(payee)) return withInputFieldNames(BUILDER_FIELDS, () => buildSetPayeeRequest({ ...common, payee }));
  return { ...buildSetPayeeRequest({ ...common, payee: "Staked" }), coin_fields: { type: "SETPAYEE", payee } };
}

/** An unfinished transaction of this type draws its amount (and, from the available balance, its fee cap: 0 in Polkadot staking). */
function sameType(type: string, withFees = false): (tx: Transaction) => bigint | undefined {
  return (tx) => (operationOf(tx) === type ? tx.amount + (withFees ? tx.max_fees : 0n) : undefined);
}

/**
 * The balance each amount operation draws on (Usage rules, point 4) and the unfinished
 * transactions that draw on it too: same-direction operations only (an unbond in flight is not
 * credited to a rebond). A REBOND also loses the unbonded funds to a WITHDRAWUNBONDED in flight.
 */
function inFlightSpec(op: AmountOperation, balances: PolkadotBalances, currency: Currency): InFlightSpec {
  const common = { prefix: `POLKADOT_${op.type}`, what: `${op.type} amount`, amount: op.amount, currency };
  switch (op.type) {
    case "UNBOND":
      return { ...common, balanceName: "balances.bonded", balance: balances.bonded, draws: sameType("UNBOND") };
    case "BONDEXTRA":
      // Unfinished sends are already held out of balances.available by the service (docs/spec-decisions.md).
      return { ...common, balanceName: "balances.available", balance: balances.available, draws: sameType("BONDEXTRA", true) };
    case "REBOND":
      return {
        ...common,
        balanceName: "balances.total_unbonding + balances.total_unbonded",
        balance: balances.total_unbonding + balances.total_unbonded,
        draws: (tx) => (operationOf(tx) === "WITHDRAWUNBONDED" ? balances.total_unbonded : sameType("REBOND")(tx)),
      };
  }
}

/** The account to plan on: for an amount operation, read again after listing its unfinished transactions. */
async function freshAccount(ctx: PlanContext, account: Account, counted: boolean): Promise<{ account: Account; listing: UnfinishedListing | null }> {
  if (!counted) return { account, listing: null };
  return accountAfterUnfinished(ctx, account);
}

/** Polkadot staking: POST /transactions with the operation's coin_fields and the fixed values. */
export async function planPolkadot(ctx: PlanContext, request: WriteRequestOf<PolkadotKind>, note: Note): Promise<WriteDraft> {
  const loaded = await loadAccount(ctx, request.account);
  const currency = loaded.currency;
  requireNetwork(loaded.account, request.kind.replace(/_/g, " "), "Polkadot");
  const { account, listing } = await freshAccount(ctx, loaded.account, "amount" in request);
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
      body = setPayeeBody(common, request.payee);
      summary = `set the rewards destination of ${account.name} from ${account.coin_fields.staking.rewards_destination} to ${request.payee}`;
      break;
  }
  const { balances, staking } = account.coin_fields;
  const governance = governanceFor(account, "transaction", ctx.operator);
  const moved = "amount" in operation ? operation.amount : undefined;
  const checks: Finding[] = [...checkPolkadotOperation(operation, balances, staking)];
  if (operation.type === "SETPAYEE") checks.push(checkRewardsDestination(operation.payee));
  if ("amount" in operation && listing !== null) checks.push(inFlightFinding(listing, inFlightSpec(operation, balances, currency)));
  checks.push(...checkPolkadotFixedValues(body), ...governance.findings);
  return {
    account,
    currency,
    call: { method: "POST", path: "/transactions", body },
    checks,
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
