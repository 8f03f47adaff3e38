import type { Currency } from "../../schemas/currency.js";
import { describeAmount } from "../../units/describe-amount.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

/** An unfinished transaction (pending approval, approved or signed) and what it will draw on broadcast. */
export interface InFlightTransaction {
  id: number;
  type: string;
  status: string;
  /** Base units it takes from the balance in question when it is broadcast. */
  draws: bigint;
}

export interface InFlightInput {
  /** Prefix of the finding codes: POLKADOT_UNBOND gives POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT, POLKADOT_UNBOND_IN_FLIGHT_OK. */
  prefix: string;
  /** What this write draws, as the message names it: "UNBOND amount", "amount + max_fees". */
  what: string;
  /** Base units this write draws from the balance. */
  amount: bigint;
  /** The balance drawn on, as the messages name it: "balances.bonded". */
  balanceName: string;
  /** Its value as read now: it does not yet reflect the unfinished transactions. */
  balance: bigint;
  /** The account's unfinished transactions that draw on the same balance. */
  inFlight: readonly InFlightTransaction[];
  currency: Currency;
}

function listed(inFlight: readonly InFlightTransaction[], currency: Currency): string {
  return inFlight.map((tx) => `id ${tx.id} ${tx.type} ${describeAmount(tx.draws, currency)} ${tx.status}`).join("; ");
}

/**
 * A write against the balance it draws on once the account's unfinished transactions drawing on
 * the same balance are counted: they are not yet in the balance, and whichever is broadcast last
 * fails (a Polkadot UNBOND of 3000 DOT after another still approved, against 3200 DOT bonded).
 * Codes: <prefix>_EXCEEDS_WITH_IN_FLIGHT | <prefix>_IN_FLIGHT_OK.
 */
export function checkInFlight(input: InFlightInput): Finding {
  const { prefix, what, amount, balanceName, balance, inFlight, currency } = input;
  const pending = inFlight.reduce((sum, tx) => sum + tx.draws, 0n);
  const total = amount + pending;
  const facts = { amount, in_flight: pending, in_flight_ids: inFlight.map((tx) => tx.id).join(","), balance_name: balanceName, balance };
  if (inFlight.length === 0) {
    return finding("info", `${prefix}_IN_FLIGHT_OK`, localText("no unfinished transaction of the account draws on {0}", balanceName), facts);
  }
  const sum =
    `${what} ${describeAmount(amount, currency)} + ${describeAmount(pending, currency)} of unfinished ` +
    `transactions on the account (${listed(inFlight, currency)}) = ${describeAmount(total, currency)}`;
  if (total > balance) {
    return finding(
      "block",
      `${prefix}_EXCEEDS_WITH_IN_FLIGHT`,
      localText(
        "{0} exceeds {1} {2}: they all draw on it when broadcast, so one of them would fail; wait for them to finish or lower the amount",
        sum,
        balanceName,
        describeAmount(balance, currency),
      ),
      facts,
    );
  }
  return finding("info", `${prefix}_IN_FLIGHT_OK`, localText("{0} is within {1} {2}", sum, balanceName, describeAmount(balance, currency)), facts);
}

/** The finding when the account's unfinished transactions could not be listed: never a silent pass. */
export function inFlightNotCounted(balanceName: string, reason: string): Finding {
  return finding(
    "warn",
    "IN_FLIGHT_NOT_COUNTED",
    localText(
      "the account's unfinished transactions (pending approval, approved, signed) could not be listed " +
        "({0}): operations in flight were not counted against {1}",
      reason,
      balanceName,
    ),
    { balance: balanceName },
  );
}
