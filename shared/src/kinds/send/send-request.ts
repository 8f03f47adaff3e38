import { Network } from "../../schemas/account.js";
import type { Currency } from "../../schemas/currency.js";
import type { Note } from "../../schemas/primitives.js";
import type { Speed } from "../../schemas/transaction-request.js";
import { TransactionRequest } from "../../schemas/transaction-request.js";
import { baseUnit } from "../../units/currency-units.js";
import { ANY_ADDRESS, ANY_ADDRESS_RULE } from "../../schemas/address-format.js";
import { INPUT_LIMITS } from "../../schemas/input-limits.js";
import { amountObject } from "../kit/amount-object.js";
import { amountIssue, checkedBody, formatIssue, throwIfIssues } from "../kit/builder-validation.js";
import { noteField } from "../kit/note-copy.js";

export interface SendRequestInput {
  /** The account's network: it decides whether coin_fields { type: "SEND" } is sent. */
  network: Network;
  account_name: string;
  recipient: string;
  /** Base units, positive. */
  amount: bigint;
  /** Base units, non-negative. */
  max_fees: bigint;
  speed: Speed;
  /** The account's currency, to name its base unit. */
  currency: Currency;
  note?: Note;
}

/**
 * Networks whose plain sends carry coin_fields { type: "SEND" }: Solana (the spec's example) and
 * Polkadot (its typed coin_fields list SEND among its operations). Ethereum's coin_fields are for
 * contract calls only (EXECUTE_CONTRACT was formerly SEND), so a plain Ether send carries none.
 */
export const SEND_COIN_FIELDS_NETWORKS: ReadonlySet<Network> = new Set<Network>(["Solana", "Polkadot"]);

/** The body of POST /transactions for a plain send, amounts in base units. */
export function buildSendRequest(input: SendRequestInput): TransactionRequest {
  const subject = "send request (POST /transactions)";
  const network = Network.safeParse(input.network);
  throwIfIssues(subject, [
    network.success ? undefined : { path: "network", message: `must be one of ${Network.options.join(", ")}` },
    formatIssue("recipient", input.recipient, ANY_ADDRESS, ANY_ADDRESS_RULE, INPUT_LIMITS.address),
    amountIssue("amount", input.amount, "positive"),
    amountIssue("max_fees", input.max_fees, "non-negative"),
  ]);
  const unit = baseUnit(input.currency).code;
  return checkedBody(subject, TransactionRequest, {
    account_name: input.account_name,
    amount: amountObject(input.amount, unit),
    max_fees: amountObject(input.max_fees, unit),
    recipient: input.recipient,
    speed: input.speed,
    ...(SEND_COIN_FIELDS_NETWORKS.has(input.network) ? { coin_fields: { type: "SEND" as const } } : {}),
    ...noteField(input.note),
  });
}
