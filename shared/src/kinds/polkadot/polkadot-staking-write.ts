import { checkPolkadotFixedValues, checkPolkadotOperation, type PolkadotOperation } from "./polkadot-rules.js";
import { checkRewardsDestination } from "./rewards-destination-rule.js";
import { isRewardsDestination } from "../../schemas/coin-fields-request.js";
import type { Finding } from "../../schemas/finding.js";
import { isPolkadotAccount, type Account } from "../../schemas/account.js";
import type { Currency } from "../../schemas/currency.js";
import type { PolkadotBalances, PolkadotCoinFields } from "../../schemas/polkadot-coin-fields.js";
import type { Note } from "../../schemas/primitives.js";
import type { TransactionRequest } from "../../schemas/transaction-request.js";
import { requireNetwork } from "../kit/account-kind-error.js";
import { noteWithReference } from "../kit/correlation-reference.js";
import { inFlightDraws, inFlightFinding } from "../kit/in-flight-check.js";
import { networkFee } from "../kit/network-fee.js";
import { checkAmountScale } from "../kit/amount-scale-rule.js";
import { governanceFor, loadAccount, type PlanContext } from "../kit/plan-context.js";
import { accountAfterUnfinished, type UnfinishedListing } from "../../holdings/unfinished-transactions.js";
import type { AccountReference } from "../kit/request-fields.js";
import { buildBody, buildFindings } from "../kit/built-body.js";
import { transactionDraft } from "../kit/transaction-draft.js";
import { POLKADOT_BALANCE_NAMES, POLKADOT_CREDITED, polkadotBalanceValue, polkadotDraws, type PolkadotBalance } from "./polkadot-balance-draws.js";
import { balanceChange, type BalanceChange } from "../kit/balance-change.js";
import { describedDestination, type Destination, type WriteDraft } from "../kit/write-spec.js";
import { localText, type LocalText } from "../../l10n/translate.js";

/** What the builders of every Polkadot staking request take. */
export interface PolkadotBodyInput {
  account_name: string;
  currency: Currency;
  note: Note;
}

/** One Polkadot staking operation's own part: the rest of its plan is the same for all. */
export interface PolkadotStakingShape {
  /** The default note title: "polkadot unbond". */
  title: string;
  operation: PolkadotOperation;
  /** The balance an amount operation draws on, counted with the unfinished transactions drawing on it too. */
  draws: PolkadotBalance | null;
  /** The balance it adds to. */
  credits?: keyof typeof POLKADOT_CREDITED;
  build(input: PolkadotBodyInput): TransactionRequest;
  summary(account: Account & { coin_fields: PolkadotCoinFields }, currency: Currency): LocalText;
}

/** The account to plan on: for an amount operation, read again after listing its unfinished transactions. */
async function freshAccount(ctx: PlanContext, account: Account, counted: boolean): Promise<{ account: Account; listing: UnfinishedListing | null }> {
  if (!counted) return { account, listing: null };
  return accountAfterUnfinished(ctx, account);
}

/** The unbonding period (spec, Limits): an UNBOND made now unlocks this long after it is broadcast. */
const POLKADOT_UNBONDING_MS = 28 * 86_400_000;

/**
 * The balances an operation moves: the one it draws on (with the unfinished transactions drawing on
 * it too) and the one it adds to; a withdrawal of unbonded funds moves them all to available.
 */
function polkadotChanges(
  shape: PolkadotStakingShape,
  operation: PolkadotOperation,
  balances: PolkadotBalances,
  listing: UnfinishedListing | null,
): BalanceChange[] {
  if (operation.type === "WITHDRAWUNBONDED") {
    return [
      balanceChange("balances.total_unbonded", balances.total_unbonded, -balances.total_unbonded),
      balanceChange("balances.available", balances.available, balances.total_unbonded),
    ];
  }
  if (!("amount" in operation) || shape.draws === null) return [];
  const draws = shape.draws;
  const inFlight = listing === null ? 0n : inFlightDraws(listing, (tx) => polkadotDraws(draws, tx, balances.total_unbonded));
  const changes = [balanceChange(POLKADOT_BALANCE_NAMES[draws], polkadotBalanceValue(draws, balances), -operation.amount - inFlight)];
  if (shape.credits !== undefined) {
    const credited = POLKADOT_CREDITED[shape.credits];
    changes.push(balanceChange(credited.name, credited.value(balances), operation.amount));
  }
  return changes;
}

/** Where an operation sends its funds: the rewards destination of a SETPAYEE, else the balance of the same account it adds to. */
function polkadotDestination(shape: PolkadotStakingShape, operation: PolkadotOperation, staking: PolkadotCoinFields["staking"]): Destination {
  if (operation.type === "SETPAYEE") return { role: "payee", value: `${operation.payee} (now ${staking.rewards_destination})` };
  if (operation.type === "WITHDRAWUNBONDED") return describedDestination("into", localText("{0} of the same account", "balances.available"));
  return describedDestination(
    "into",
    shape.credits === undefined ? localText("the same account") : localText("{0} of the same account", POLKADOT_CREDITED[shape.credits].name),
  );
}

/** Polkadot staking: POST /transactions with the operation's coin_fields and the fixed values. */
export async function planPolkadotStaking(
  ctx: PlanContext,
  request: { account: AccountReference; note?: Note | undefined; correlation_id?: string | undefined },
  reference: string,
  shape: PolkadotStakingShape,
): Promise<WriteDraft> {
  const loaded = await loadAccount(ctx, request.account);
  const currency = loaded.currency;
  requireNetwork(loaded.account, shape.title, "Polkadot");
  const { account, listing } = await freshAccount(ctx, loaded.account, shape.draws !== null);
  if (!isPolkadotAccount(account)) throw new Error("unreachable: a Polkadot account without Polkadot coin_fields");
  const note = noteWithReference(request.note, reference, shape.title);
  const built = buildBody(() => shape.build({ account_name: account.name, currency, note }));
  const operation = shape.operation;
  const { balances, staking } = account.coin_fields;
  const governance = governanceFor(account, "transaction", ctx.operator);
  const moved = "amount" in operation ? operation.amount : undefined;
  const now = ctx.client.serviceNow();
  // A payee that is no rewards destination blocks (checkRewardsDestination), and its body, shown but never sent, is not estimated either.
  const estimable = operation.type !== "SETPAYEE" || isRewardsDestination(operation.payee);
  const fee = estimable
    ? await networkFee(ctx, built.body, request.correlation_id !== undefined)
    : { unknown: "not estimated: payee is not a rewards destination" };
  const checks: Finding[] = [...checkPolkadotOperation(operation, balances, staking, now), ...buildFindings(built)];
  if (moved !== undefined)
    checks.push(...checkAmountScale({ amount: moved, balance: account.balance, fee: "estimated" in fee ? fee.estimated : null, currency }));
  if (operation.type === "SETPAYEE") checks.push(checkRewardsDestination(operation.payee));
  if (moved !== undefined && shape.draws !== null && listing !== null) {
    const balance = shape.draws;
    checks.push(
      inFlightFinding(listing, {
        prefix: `POLKADOT_${operation.type}`,
        what: `${operation.type} amount`,
        amount: moved,
        currency,
        balanceName: POLKADOT_BALANCE_NAMES[balance],
        balance: polkadotBalanceValue(balance, balances),
        draws: (tx) => polkadotDraws(balance, tx, balances.total_unbonded),
      }),
    );
  }
  if (built.body !== null) checks.push(...checkPolkadotFixedValues(built.body));
  checks.push(...governance.findings);
  return {
    account,
    currency,
    checks,
    // A withdrawal of unbonded funds names no amount: it moves every unbonded fund.
    amounts: moved !== undefined ? { amount: moved } : operation.type === "WITHDRAWUNBONDED" ? { total_unbonded: balances.total_unbonded } : {},
    destinations: [polkadotDestination(shape, operation, staking)],
    balances: polkadotChanges(shape, operation, balances, listing),
    fee,
    ...(operation.type === "UNBOND" ? { dates: { unlocks_at: new Date(now.getTime() + POLKADOT_UNBONDING_MS) } } : {}),
    governance: governance.expectation,
    policy: { amount: moved },
    proposed_max_fees: null,
    summary: shape.summary(account, currency),
    ...transactionDraft(built, {
      operations: [operation.type],
      ...(moved === undefined ? {} : { amount: moved.toString() }),
      ...(operation.type === "SETPAYEE" ? { payee: operation.payee } : {}),
    }),
  };
}
