import {
  addressProblem,
  checkSolanaCreateStake,
  checkSolanaStakeAction,
  hasBlocking,
  SOLANA_STAKE_ACTION_TYPES,
  stakeAllows,
  type Finding,
  type SolanaStakeAction,
} from "@custody/shared";
import type { Tx } from "../../context.js";
import { badRequest, notFound } from "../domain-error.js";
import { networkFee } from "../../networks/fee-schedule.js";
import { SOLANA_RENT_EXEMPT_RESERVE } from "../../networks/network-constants.js";
import type { SolanaEpochs } from "../../networks/solana-epochs.js";
import type { AccountRow, RuleKind, SolanaStakeRow, UserRow } from "../../store/state-types.js";
import { availableBalance } from "../../views/account-view.js";
import { solanaStakeView } from "../../views/solana-stake-view.js";
import { requireCreatorIn } from "../transactions/governance-check.js";
import type { TransactionDraft } from "../transactions/transaction-draft.js";
import { newStakeIdentity } from "./stake-keys.js";

const STAKE_SPEED = "NORMAL";

function blockingMessage(findings: readonly Finding[]): string {
  return findings
    .filter((item) => item.severity === "block")
    .map((item) => item.message)
    .join("; ");
}

export function requireSolanaAccount(account: AccountRow): AccountRow {
  if (account.network !== "Solana") throw notFound(`account ${account.id} is a ${account.network} account, not a Solana account`);
  return account;
}

export function requireStake(tx: Pick<Tx, "get">, account: AccountRow, uid: string): SolanaStakeRow {
  const stake = tx.get("solana_stakes", uid);
  if (!stake || stake.account_id !== account.id) throw notFound(`stake ${JSON.stringify(uid)} of account ${account.id} does not exist`);
  return stake;
}

function checkValidator(validator: string): void {
  const problem = addressProblem("Solana", validator);
  if (problem) throw badRequest(`validator: ${problem}`);
}

/** Guided staking needs the operator as a creator in the staking and the transaction rules (usage rule 1). */
const STAKING_RULES: readonly RuleKind[] = ["staking", "transaction"];

function requirePositive(amount: bigint, what: string): void {
  if (amount === 0n) throw badRequest(`amount: must be greater than 0 base units for ${what}, got 0`);
}

/**
 * POST /solana/accounts/{id}/stakes: a STAKE_CREATE_DELEGATE of `amount` (the rent-exempt reserve
 * included) to the validator. Governance is checked before the amount and the balance.
 */
export function planCreateStake(account: AccountRow, operator: UserRow, amount: bigint, validator: string, now: number): TransactionDraft {
  requireCreatorIn(account, STAKING_RULES, operator);
  requirePositive(amount, "a new stake");
  checkValidator(validator);
  const fee = networkFee("Solana", STAKE_SPEED, "stake");
  const findings = checkSolanaCreateStake({
    amount,
    availableBalance: availableBalance(account, now),
    rentExemptReserve: SOLANA_RENT_EXEMPT_RESERVE,
    maxFees: fee,
  });
  if (hasBlocking(findings)) throw badRequest(blockingMessage(findings), "InvalidStake");
  const { uid, pubKey } = newStakeIdentity(account.address);
  return {
    account,
    rule: "staking",
    alsoCreatorIn: ["transaction"],
    type: "STAKE_CREATE_DELEGATE",
    amount,
    maxFees: fee,
    feeDue: fee,
    reserve: amount + fee,
    recipient: validator,
    speed: STAKE_SPEED,
    notes: [],
    coinFields: { type: "Solana", tx_parameters: { stake_account: pubKey, validator_address: validator } },
    effect: { kind: "solana_create_stake", stake_uid: uid, stake_pub_key: pubKey, validator },
  };
}

export interface StakeActionInput {
  amount?: bigint;
  validator?: string;
}

/**
 * A stake action: 403 when the operator is not a creator in the rules; then refused with 400 when
 * the stake's `actions` does not list it (none are listed while another transaction acts on the
 * stake) or the shared stake rules block it.
 */
export function planStakeAction(
  account: AccountRow,
  operator: UserRow,
  stake: SolanaStakeRow,
  action: SolanaStakeAction,
  input: StakeActionInput,
  epochs: SolanaEpochs,
  now: number,
): TransactionDraft {
  requireCreatorIn(account, STAKING_RULES, operator);
  if (input.amount !== undefined) requirePositive(input.amount, `a ${action}`);
  const view = solanaStakeView(stake, account, epochs.epochAt(now));
  if (!stakeAllows(view, action)) {
    const allowed = view.actions.map((path) => path.slice(path.lastIndexOf("/") + 1));
    const why =
      stake.pending_transaction_id !== null
        ? `transaction ${stake.pending_transaction_id} is acting on it; wait until it ends`
        : `its actions list ${allowed.length > 0 ? allowed.join(", ") : "nothing"}`;
    throw badRequest(`${action} is not allowed on stake ${stake.uid} (blockchain_state.status ${stake.state}): ${why}`, "ActionNotAllowed");
  }
  const findings = checkSolanaStakeAction(action, view, input.amount === undefined ? {} : { amount: input.amount });
  if (hasBlocking(findings)) throw badRequest(blockingMessage(findings), "ActionNotAllowed");
  if (action === "delegate") checkValidator(input.validator ?? "");
  const fee = networkFee("Solana", STAKE_SPEED, "stake");
  const available = availableBalance(account, now);
  if (available < fee) throw badRequest(`available_balance ${available} does not cover the fee of ${fee} base units`, "InsufficientFunds");
  const split = action === "split" || action === "split_deactivate" ? newStakeIdentity(account.address) : null;
  const amount = split ? (input.amount ?? 0n) : stake.total_balance;
  const parameters: Record<string, unknown> = { stake_account: stake.pub_key };
  if (action === "delegate") parameters.validator_address = input.validator;
  if (split) parameters.new_stake_account = split.pubKey;
  return {
    account,
    rule: "staking",
    alsoCreatorIn: ["transaction"],
    type: SOLANA_STAKE_ACTION_TYPES[action],
    amount,
    maxFees: fee,
    feeDue: fee,
    reserve: fee,
    recipient: action === "delegate" ? (input.validator ?? "") : stake.pub_key,
    speed: STAKE_SPEED,
    notes: [],
    coinFields: { type: "Solana", tx_parameters: parameters },
    effect: {
      kind: "solana_stake_action",
      action,
      stake_uid: stake.uid,
      validator: input.validator ?? null,
      new_stake_uid: split?.uid ?? null,
      new_stake_pub_key: split?.pubKey ?? null,
    },
  };
}
