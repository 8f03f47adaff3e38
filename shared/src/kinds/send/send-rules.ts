import { checkAmountWithinAvailable } from "../kit/amount-within-available.js";
import type { Finding } from "../../schemas/finding.js";

export interface SendInput {
  amount: bigint;
  maxFees: bigint;
  availableBalance: bigint;
}

/**
 * A plain send: amount > 0, and amount + max_fees <= available_balance.
 * Codes: SEND_AMOUNT_NOT_POSITIVE | SEND_AMOUNT_OK, SEND_EXCEEDS_AVAILABLE | SEND_MAX_FEES_NEGATIVE | SEND_BALANCE_OK.
 */
export function checkSend(input: SendInput): Finding[] {
  return checkAmountWithinAvailable({
    prefix: "SEND",
    fields: { amount: "amount", maxFees: "max_fees", availableBalance: "available_balance" },
    ...input,
  });
}
