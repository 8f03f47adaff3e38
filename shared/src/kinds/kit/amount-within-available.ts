import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

export interface AmountWithinAvailableInput {
  /** Prefix of the finding codes, e.g. "SEND" gives SEND_AMOUNT_NOT_POSITIVE, SEND_BALANCE_OK. */
  prefix: string;
  /** How the rule's fields are named in messages, e.g. { amount: "amount", maxFees: "max_fees", availableBalance: "available_balance" }. */
  fields: { amount: string; maxFees: string; availableBalance: string };
  amount: bigint;
  /** Undefined when the fees are not known: the balance check then counts the amount alone. */
  maxFees?: bigint | undefined;
  availableBalance: bigint;
}

/**
 * The two checks shared by every spend from an account's available balance:
 * the amount is positive, and the amount plus the fee cap fits in the available balance.
 */
export function checkAmountWithinAvailable(input: AmountWithinAvailableInput): Finding[] {
  return [checkPositive(input), checkFits(input)];
}

function checkPositive({ prefix, fields, amount }: AmountWithinAvailableInput): Finding {
  if (amount <= 0n) {
    return finding("block", `${prefix}_AMOUNT_NOT_POSITIVE`, localText("{0} must be greater than 0 base units, got {1}", fields.amount, String(amount)), {
      amount,
    });
  }
  return finding("info", `${prefix}_AMOUNT_OK`, localText("{0} {1} is greater than 0 (base units)", fields.amount, String(amount)), { amount });
}

function checkFits({ prefix, fields, amount, maxFees, availableBalance }: AmountWithinAvailableInput): Finding {
  if (maxFees === undefined) {
    const facts = { amount, available_balance: availableBalance };
    if (amount > availableBalance) {
      return finding(
        "block",
        `${prefix}_EXCEEDS_AVAILABLE`,
        localText("{0} {1} exceeds {2} {3} (base units), even before fees", fields.amount, String(amount), fields.availableBalance, String(availableBalance)),
        facts,
      );
    }
    if (amount === availableBalance) {
      return finding(
        "warn",
        `${prefix}_NO_ROOM_FOR_FEES`,
        localText("{0} {1} is the whole {2} (base units): nothing is left for the network fees", fields.amount, String(amount), fields.availableBalance),
        facts,
      );
    }
    return finding(
      "info",
      `${prefix}_BALANCE_OK`,
      localText(
        "{0} {1} is within {2} {3} (base units); fees not known, not counted",
        fields.amount,
        String(amount),
        fields.availableBalance,
        String(availableBalance),
      ),
      facts,
    );
  }
  if (maxFees < 0n) {
    return finding("block", `${prefix}_MAX_FEES_NEGATIVE`, localText("{0} must not be negative, got {1} base units", fields.maxFees, String(maxFees)), {
      max_fees: maxFees,
    });
  }
  const total = amount + maxFees;
  const facts = { amount, max_fees: maxFees, total, available_balance: availableBalance };
  const sum = [fields.amount, String(amount), fields.maxFees, String(maxFees), String(total), fields.availableBalance, String(availableBalance)];
  if (total > availableBalance) {
    return finding("block", `${prefix}_EXCEEDS_AVAILABLE`, localText("{0} {1} + {2} {3} = {4} exceeds {5} {6} (base units)", ...sum), facts);
  }
  return finding("info", `${prefix}_BALANCE_OK`, localText("{0} {1} + {2} {3} = {4} is within {5} {6} (base units)", ...sum), facts);
}
