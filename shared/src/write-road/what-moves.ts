import { baseUnit } from "../units/currency-units.js";
import type { FormattedAmount } from "../units/format-units.js";
import { oneLineUntrusted } from "../untrusted/untrusted-text.js";
import { shortenedText } from "../untrusted/shortened-text.js";
import type { Destination } from "../kinds/kit/write-spec.js";
import type { PlannedWrite } from "./planned-write.js";

// What moves, the first thing every surface shows a person about a write: the account (name and
// id), the amount in both units, where it goes, the fee and the balances after, in this order and
// before any workspace text that can be long. Names and addresses are held to a budget, so no
// name, however long or full of hidden characters, pushes the rest off the screen or out of a cap.

/** Shown characters of an account's name; its id is always shown beside it. */
const SHOWN_NAME_BUDGET = 64;
/** Shown characters of a recipient, validator, contract, stake or payee (an address is at most 128 when typed). */
const SHOWN_DESTINATION_BUDGET = 256;

/** How the one-sentence form leads into each destination. */
const ROLE_LEADS: Record<Destination["role"], string> = {
  transaction: "of transaction",
  recipient: "to recipient",
  validator: "to validator",
  contract: "through contract",
  withdrawals: "withdrawals to",
  stake: "on stake",
  payee: "rewards to",
  into: "into",
};

const ROLE_LABELS: Record<Destination["role"], string> = {
  transaction: "Transaction",
  recipient: "Recipient",
  validator: "Validator",
  contract: "Contract",
  withdrawals: "Withdrawals to",
  stake: "Stake",
  payee: "Rewards destination",
  into: "Into",
};

/** How a surface marks workspace text in what it shows (the MCP server delimits it; the extension shows it as it is, sanitised). */
type QuoteText = (field: string, text: string) => string;
const asShown: QuoteText = (_field, text) => text;

/** The facts, each bounded and sanitised, in the order they are shown. */
export interface WhatMoves {
  title: string;
  account: { id: number; name: string };
  /** The amount the write moves (`amount`, else a stake's or the unbonded total), in both units; null when it moves none (a payee change). */
  amount: { name: string; display: string; unit: string; base_units: string } | null;
  /** The code of the currency's base unit (lamport, planck, wei). */
  base_unit: string;
  destinations: Destination[];
  fee: { estimated: FormattedAmount } | { unknown: string };
  balances: PlannedWrite["balances"];
}

function movedAmount(plan: PlannedWrite): WhatMoves["amount"] {
  const name = "amount" in plan.amounts ? "amount" : Object.keys(plan.amounts).find((key) => key !== "max_fees" && key !== "rent_exempt_reserve");
  const amount = name === undefined ? undefined : plan.amounts[name];
  if (name === undefined || amount === undefined) return null;
  return { name, display: amount.display, unit: amount.unit, base_units: amount.base_units };
}

/** The one definition of what a person is shown first about a write. */
export function whatMoves(plan: PlannedWrite): WhatMoves {
  return {
    title: plan.identity.title,
    account: { id: plan.account.id, name: shortenedText(plan.account.name, SHOWN_NAME_BUDGET) },
    amount: movedAmount(plan),
    base_unit: baseUnit(plan.currency).code,
    destinations: plan.destinations.map((destination) => ({
      role: destination.role,
      value: shortenedText(destination.value, SHOWN_DESTINATION_BUDGET, destination.role),
    })),
    // Why the fee is not known may quote the service's error body: on one line, like a name.
    fee: "estimated" in plan.fee ? plan.fee : { unknown: oneLineUntrusted(plan.fee.unknown, SHOWN_DESTINATION_BUDGET) },
    balances: plan.balances,
  };
}

function amountText(moves: WhatMoves): string {
  const amount = moves.amount;
  if (amount === null) return "none (no funds move)";
  return (
    `${amount.display} ${amount.unit} (${amount.base_units} ` +
    `${moves.base_unit})${amount.name === "amount" ? "" : `, the ${amount.name.replace(/_/g, " ")}`}`
  );
}

function feeText(moves: WhatMoves): string {
  if ("unknown" in moves.fee) return `not known (${moves.fee.unknown})`;
  const fee = moves.fee.estimated;
  return `${fee.display} ${fee.unit} (${fee.base_units} ${moves.base_unit})`;
}

function accountText(moves: WhatMoves, quote: QuoteText): string {
  return `${quote("account.name", moves.account.name)} (id ${moves.account.id})`;
}

/**
 * What moves as lines: `Account:`, `Amount:`, one line per destination (`Recipient:`...), `Fee:`
 * (with the request's fee cap), `Balances:` (before → after). `quote` marks workspace text.
 */
export function whatMovesLines(plan: PlannedWrite, quote: QuoteText = asShown): string[] {
  const moves = whatMoves(plan);
  const cap = plan.amounts.max_fees;
  const capText = cap === undefined ? "" : `; max_fees ${cap.display} ${cap.unit}${plan.proposed_max_fees === null ? "" : " proposed from it"}`;
  const balances = moves.balances.map((change) => `${change.name} ${change.before.display} → ${change.after.display} ${change.after.unit}`).join("; ");
  return [
    `Account: ${accountText(moves, quote)}`,
    `Amount: ${amountText(moves)}`,
    ...moves.destinations.map((destination) => `${ROLE_LABELS[destination.role]}: ${quote(destination.role, destination.value)}`),
    `Fee: ${feeText(moves)}${"estimated" in moves.fee ? " estimated" : ""}${capText}.`,
    ...(balances === "" ? [] : [`Balances: ${balances}.`]),
  ];
}

/**
 * What moves in one sentence, for a modal's message or a notification: "Send funds from payroll
 * (id 7): 1.5 SOL (1500000000 lamport) to recipient ...; fee ...; after: available_balance 8.5 SOL."
 * `fee: false` leaves the fee out: the last plan before a POST does not estimate it again.
 */
export function whatMovesSentence(plan: PlannedWrite, options: { fee?: boolean } = {}): string {
  const moves = whatMoves(plan);
  const to = moves.destinations.map((destination) => `${ROLE_LEADS[destination.role]} ${destination.value}`).join(", ");
  const after = moves.balances.map((change) => `${change.name} ${change.after.display} ${change.after.unit}`).join(", ");
  return (
    `${moves.title} from ${accountText(moves, asShown)}: ${amountText(moves)} ` +
    `${to}${options.fee === false ? "" : `; fee ${feeText(moves)}`}` +
    `${after === "" ? "" : `; after: ${after}`}.`
  );
}
