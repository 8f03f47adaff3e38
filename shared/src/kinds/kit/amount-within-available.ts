import { finding, type Finding } from "../../schemas/finding.js";

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
    return finding("block", `${prefix}_AMOUNT_NOT_POSITIVE`, `${fields.amount} must be greater than 0 base units, got ${amount}`, {
      amount,
    });
  }
  return finding("info", `${prefix}_AMOUNT_OK`, `${fields.amount} ${amount} is greater than 0 (base units)`, { amount });
}

function checkFits({ prefix, fields, amount, maxFees, availableBalance }: AmountWithinAvailableInput): Finding {
  if (maxFees === undefined) {
    const facts = { amount, available_balance: availableBalance };
    if (amount > availableBalance) {
      return finding(
        "block",
        `${prefix}_EXCEEDS_AVAILABLE`,
        `${fields.amount} ${amount} exceeds ${fields.availableBalance} ${availableBalance} (base units), even before fees`,
        facts,
      );
    }
    if (amount === availableBalance) {
      return finding(
        "warn",
        `${prefix}_NO_ROOM_FOR_FEES`,
        `${fields.amount} ${amount} is the whole ${fields.availableBalance} (base units): nothing is left for the network fees`,
        facts,
      );
    }
    return finding(
      "info",
      `${prefix}_BALANCE_OK`,
      `${fields.amount} ${amount} is within ${fields.availableBalance} ${availableBalance} (base units); fees not known, not counted`,
      facts,
    );
  }
  if (maxFees < 0n) {
    return finding("block", `${prefix}_MAX_FEES_NEGATIVE`, `${fields.maxFees} must not be negative, got ${maxFees} base units`, {
      max_fees: maxFees,
    });
  }
  const total = amount + maxFees;
  const facts = { amount, max_fees: maxFees, total, available_balance: availableBalance };
  if (total > availableBalance) {
    return finding(
      "block",
      `${prefix}_EXCEEDS_AVAILABLE`,
      `${fields.amount} ${amount} + ${fields.maxFees} ${maxFees} = ${total} exceeds ${fields.availableBalance} ${availableBalance} (base units)`,
      facts,
    );
  }
  return finding(
    "info",
    `${prefix}_BALANCE_OK`,
    `${fields.amount} ${amount} + ${fields.maxFees} ${maxFees} = ${total} is within ${fields.availableBalance} ${availableBalance} (base units)`,
    facts,
  );
}
