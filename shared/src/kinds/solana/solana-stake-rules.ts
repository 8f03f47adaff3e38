import { stakeAllows, type SolanaStake, type SolanaStakeAction } from "../../schemas/solana-stake.js";
import { checkAmountWithinAvailable } from "../kit/amount-within-available.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { whenText } from "../../dates/duration-text.js";
import { localText } from "../../l10n/translate.js";

/**
 * Checks a stake action against the stake as last read. The stake's `actions` is the
 * service's word on what is allowed now: an action it does not list is blocked. The
 * state checks of the spec come on top of it.
 */
export function checkSolanaStakeAction(action: SolanaStakeAction, stake: SolanaStake, options: { amount?: bigint; when?: WithdrawalDates } = {}): Finding[] {
  const findings = [checkListed(action, stake)];
  switch (action) {
    case "deactivate":
      findings.push(checkDeactivateState(stake));
      break;
    case "withdraw":
      findings.push(checkWithdrawState(stake, options.when));
      break;
    case "delegate":
      break;
    case "split":
    case "split_deactivate":
      findings.push(...checkSplit(action, stake, options.amount));
      return findings;
  }
  if (options.amount !== undefined) findings.push(amountIgnored(action, stake, options.amount));
  return findings;
}

function checkListed(action: SolanaStakeAction, stake: SolanaStake): Finding {
  const facts = { action, uid: stake.uid, actions: stake.actions.join(",") };
  if (!stakeAllows(stake, action)) {
    const listed = stake.actions.length > 0 ? stake.actions.join(", ") : "none";
    return finding(
      "block",
      "SOLANA_STAKE_ACTION_NOT_LISTED",
      localText("{0} is not in the stake's actions (listed: {1}): the service does not allow it on stake {2} now", action, listed, stake.uid),
      facts,
    );
  }
  return finding("info", "SOLANA_STAKE_ACTION_LISTED_OK", localText("{0} is in the actions of stake {1}", action, stake.uid), facts);
}

function checkDeactivateState(stake: SolanaStake): Finding {
  const status = stake.blockchain_state.status;
  const facts = { status };
  if (status !== "activating" && status !== "activated") {
    return finding(
      "block",
      "SOLANA_DEACTIVATE_WRONG_STATE",
      localText("deactivate needs blockchain_state.status activating or activated, got {0}", status),
      facts,
    );
  }
  return finding("info", "SOLANA_DEACTIVATE_STATE_OK", localText("blockchain_state.status {0} allows deactivate", status), facts);
}

/** When a withdrawal becomes possible: the stake's own date once deactivating, else the next epoch boundary after a deactivation now. */
export interface WithdrawalDates {
  now: Date;
  /** A deactivating stake: the start of the epoch after its deactivation. */
  withdrawableAt: Date | null;
  /** Any other: when it would be withdrawable if deactivated now. */
  ifDeactivatedNow: Date;
}

function whenWithdrawable(status: string, when: WithdrawalDates | undefined): { text: string; at: Date | null } {
  if (when === undefined) return { text: "", at: null };
  if (status === "deactivating" && when.withdrawableAt !== null) {
    return { text: `; it becomes withdrawable at the start of the next epoch, about ${whenText(when.withdrawableAt, when.now)}`, at: when.withdrawableAt };
  }
  if (status === "activating" || status === "activated") {
    return {
      text: `; deactivate it first (solana_deactivate_stake): deactivated now, it is withdrawable from about ${whenText(when.ifDeactivatedNow, when.now)}`,
      at: when.ifDeactivatedNow,
    };
  }
  return { text: "", at: null };
}

function checkWithdrawState(stake: SolanaStake, when?: WithdrawalDates): Finding {
  const status = stake.blockchain_state.status;
  const facts = { status };
  if (status !== "deactivated") {
    const allowed = whenWithdrawable(status, when);
    return finding(
      "block",
      "SOLANA_WITHDRAW_NOT_DEACTIVATED",
      localText("withdraw needs blockchain_state.status deactivated, got {0}{1}", status, allowed.text),
      {
        ...facts,
        ...(allowed.at === null ? {} : { allowed_at: allowed.at.toISOString() }),
      },
    );
  }
  return finding("info", "SOLANA_WITHDRAW_STATE_OK", localText("blockchain_state.status deactivated allows withdraw"), facts);
}

function amountIgnored(action: SolanaStakeAction, stake: SolanaStake, amount: bigint): Finding {
  const total = stake.blockchain_state.total_balance;
  return finding(
    "warn",
    "SOLANA_STAKE_AMOUNT_IGNORED",
    localText(
      "{0} takes no amount and acts on the whole stake (blockchain_state.total_balance {1} base units); the " +
        "amount {2} is ignored — use split or split_deactivate to act on part of it",
      action,
      String(total),
      String(amount),
    ),
    { action, amount, total_balance: total },
  );
}

/**
 * split and split_deactivate: 0 < amount <= total_balance; the source keeps at least the
 * rent-exempt reserve; the new stake account gets more than the reserve (amount >= reserve + 1),
 * since an account holding only the reserve has nothing to stake.
 */
function checkSplit(action: SolanaStakeAction, stake: SolanaStake, amount: bigint | undefined): Finding[] {
  if (amount === undefined) {
    return [finding("block", "SOLANA_SPLIT_AMOUNT_MISSING", localText("{0} needs an amount in base units (the part to split off)", action), { action })];
  }
  const { total_balance: total, rent_exempt_reserve: reserve } = stake.blockchain_state;
  const facts = { action, amount, total_balance: total, rent_exempt_reserve: reserve };
  const positive =
    amount <= 0n
      ? finding("block", "SOLANA_SPLIT_AMOUNT_NOT_POSITIVE", localText("{0} amount must be greater than 0 base units, got {1}", action, String(amount)), facts)
      : finding("info", "SOLANA_SPLIT_AMOUNT_OK", localText("{0} amount {1} is greater than 0 (base units)", action, String(amount)), facts);
  const within =
    amount > total
      ? finding(
          "block",
          "SOLANA_SPLIT_EXCEEDS_TOTAL",
          localText("{0} amount {1} exceeds blockchain_state.total_balance {2} (base units)", action, String(amount), String(total)),
          facts,
        )
      : finding(
          "info",
          "SOLANA_SPLIT_WITHIN_TOTAL_OK",
          localText("{0} amount {1} is within blockchain_state.total_balance {2} (base units)", action, String(amount), String(total)),
          facts,
        );
  const remaining = total - amount;
  const source =
    remaining < reserve
      ? finding(
          "block",
          "SOLANA_SPLIT_SOURCE_BELOW_RESERVE",
          localText(
            "{0} amount {1} would leave {2} in the source stake, below blockchain_state.rent_exempt_reserve {3} (base units); split off at most {4}",
            action,
            String(amount),
            String(remaining),
            String(reserve),
            String(total - reserve),
          ),
          { ...facts, remaining },
        )
      : finding(
          "info",
          "SOLANA_SPLIT_SOURCE_RESERVE_OK",
          localText(
            "{0} leaves {1} in the source stake, at least blockchain_state.rent_exempt_reserve {2} (base units)",
            action,
            String(remaining),
            String(reserve),
          ),
          { ...facts, remaining },
        );
  const target =
    amount <= reserve
      ? finding(
          "block",
          "SOLANA_SPLIT_NEW_STAKE_BELOW_RESERVE",
          localText(
            "{0} amount {1} must be more than blockchain_state.rent_exempt_reserve {2} (base units), at least " +
              "{3}, for the new stake account to exist with something staked",
            action,
            String(amount),
            String(reserve),
            String(reserve + 1n),
          ),
          facts,
        )
      : finding(
          "info",
          "SOLANA_SPLIT_NEW_STAKE_RESERVE_OK",
          localText("{0} amount {1} is more than blockchain_state.rent_exempt_reserve {2} (base units)", action, String(amount), String(reserve)),
          facts,
        );
  return [positive, within, source, target];
}

export interface SolanaCreateStakeInput {
  amount: bigint;
  availableBalance: bigint;
  rentExemptReserve?: bigint;
  maxFees?: bigint;
}

/**
 * POST /solana/accounts/{id}/stakes: amount > 0; amount (+ fees when known) <= the
 * account's available_balance; amount > the rent-exempt reserve when it is given.
 */
export function checkSolanaCreateStake(input: SolanaCreateStakeInput): Finding[] {
  const findings = checkAmountWithinAvailable({
    prefix: "SOLANA_STAKE",
    fields: { amount: "amount", maxFees: "max_fees", availableBalance: "available_balance" },
    amount: input.amount,
    maxFees: input.maxFees,
    availableBalance: input.availableBalance,
  });
  const reserve = input.rentExemptReserve;
  if (reserve !== undefined) {
    const facts = { amount: input.amount, rent_exempt_reserve: reserve };
    findings.push(
      input.amount <= reserve
        ? finding(
            "block",
            "SOLANA_STAKE_AMOUNT_NOT_ABOVE_RESERVE",
            localText(
              "amount {0} must be more than the rent-exempt reserve {1} (base units), or nothing would be staked",
              String(input.amount),
              String(reserve),
            ),
            facts,
          )
        : finding(
            "info",
            "SOLANA_STAKE_RESERVE_OK",
            localText("amount {0} is more than the rent-exempt reserve {1} (base units)", String(input.amount), String(reserve)),
            facts,
          ),
    );
  }
  return findings;
}
