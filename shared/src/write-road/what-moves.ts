import { baseUnit } from "../units/currency-units.js";
import type { FormattedAmount } from "../units/format-units.js";
import { oneLineUntrusted } from "../untrusted/untrusted-text.js";
import { shortenedText } from "../untrusted/shortened-text.js";
import type { Destination } from "../kinds/kit/write-spec.js";
import type { PlannedWrite } from "./planned-write.js";
import { english, joinedText, localText, renderText, type LocalText, type Translate } from "../l10n/translate.js";

// What moves, the first thing every surface shows a person about a write: the account (name and
// id), the amount in both units, where it goes, the fee and the balances after, in this order and
// before any workspace text that can be long. Names and addresses are held to a budget, so no
// name, however long or full of hidden characters, pushes the rest off the screen or out of a cap.

/** Shown characters of an account's name; its id is always shown beside it. */
export const SHOWN_NAME_BUDGET = 64;
/** Shown characters of a recipient, validator, contract, stake or payee (an address is at most 128 when typed). */
const SHOWN_DESTINATION_BUDGET = 256;

type RoleText = (value: string | LocalText) => LocalText;

/** How the one-sentence form leads into each destination, and its line in what moves. */
const ROLE_TEXTS: Record<Destination["role"], { lead: RoleText; line: RoleText }> = {
  transaction: { lead: (value) => localText("of transaction {0}", value), line: (value) => localText("Transaction: {0}", value) },
  recipient: { lead: (value) => localText("to recipient {0}", value), line: (value) => localText("Recipient: {0}", value) },
  validator: { lead: (value) => localText("to validator {0}", value), line: (value) => localText("Validator: {0}", value) },
  contract: { lead: (value) => localText("through contract {0}", value), line: (value) => localText("Contract: {0}", value) },
  withdrawals: { lead: (value) => localText("withdrawals to {0}", value), line: (value) => localText("Withdrawals to: {0}", value) },
  stake: { lead: (value) => localText("on stake {0}", value), line: (value) => localText("Stake: {0}", value) },
  payee: { lead: (value) => localText("rewards to {0}", value), line: (value) => localText("Rewards destination: {0}", value) },
  into: { lead: (value) => localText("into {0}", value), line: (value) => localText("Into: {0}", value) },
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

/** A destination the write describes in its own words, in the translator's language; undefined for one it names (an address, a stake). */
function ownWords(plan: PlannedWrite, index: number, t: Translate): string | undefined {
  const text = plan.destinations[index]?.text;
  return text === undefined ? undefined : renderText(text, t);
}

function amountText(moves: WhatMoves): LocalText {
  const amount = moves.amount;
  if (amount === null) return localText("none (no funds move)");
  if (amount.name === "amount") return localText("{0} {1} ({2} {3})", amount.display, amount.unit, amount.base_units, moves.base_unit);
  return localText("{0} {1} ({2} {3}), the {4}", amount.display, amount.unit, amount.base_units, moves.base_unit, amount.name.replace(/_/g, " "));
}

function feeText(moves: WhatMoves): LocalText {
  if ("unknown" in moves.fee) return localText("not known ({0})", moves.fee.unknown);
  const fee = moves.fee.estimated;
  return localText("{0} {1} ({2} {3})", fee.display, fee.unit, fee.base_units, moves.base_unit);
}

function accountText(moves: WhatMoves, quote: QuoteText): LocalText {
  return localText("{0} (id {1})", quote("account.name", moves.account.name), moves.account.id);
}

/**
 * What moves as lines: `Account:`, `Amount:`, one line per destination (`Recipient:`...), `Fee:`
 * (with the request's fee cap), `Balances:` (before → after). `quote` marks workspace text; `t`
 * translates each line's template.
 */
export function whatMovesLines(plan: PlannedWrite, quote: QuoteText = asShown, t: Translate = english): string[] {
  const moves = whatMoves(plan);
  const cap = plan.amounts.max_fees;
  const capText =
    cap === undefined
      ? ""
      : plan.proposed_max_fees === null
        ? localText("; max_fees {0} {1}", cap.display, cap.unit)
        : localText("; max_fees {0} {1} proposed from it", cap.display, cap.unit);
  const balances = joinedText(
    moves.balances.map((change) => localText("{0} {1} → {2} {3}", change.name, change.before.display, change.after.display, change.after.unit)),
  );
  const lines = [
    localText("Account: {0}", accountText(moves, quote)),
    localText("Amount: {0}", amountText(moves)),
    ...moves.destinations.map((destination, index) =>
      ROLE_TEXTS[destination.role].line(quote(destination.role, ownWords(plan, index, t) ?? destination.value)),
    ),
    "estimated" in moves.fee ? localText("Fee: {0} estimated{1}.", feeText(moves), capText) : localText("Fee: {0}{1}.", feeText(moves), capText),
    ...(moves.balances.length === 0 ? [] : [localText("Balances: {0}.", balances)]),
  ];
  return lines.map((line) => renderText(line, t));
}

/**
 * What moves in one sentence, as its template and values (the write's title too: the bundle's
 * extraction takes the titles from kinds/registry-identities.ts), for a modal's message, a
 * notification, or a list that shows it later in the reader's language. `fee: false` leaves the
 * fee out: the last plan before a POST does not estimate it again.
 */
export function whatMovesText(plan: PlannedWrite, options: { fee?: boolean } = {}): LocalText {
  const moves = whatMoves(plan);
  const to = joinedText(
    moves.destinations.map((destination, index) => ROLE_TEXTS[destination.role].lead(plan.destinations[index]?.text ?? destination.value)),
    ", ",
  );
  const after = joinedText(
    moves.balances.map((change) => localText("{0} {1} {2}", change.name, change.after.display, change.after.unit)),
    ", ",
  );
  // The account by its id first and its name last: workspace text never comes before a figure it could imitate.
  return localText(
    "{0} from account {1}: {2} {3}{4}{5}; account {1} is named “{6}”.",
    localText(moves.title),
    moves.account.id,
    amountText(moves),
    to,
    options.fee === false ? "" : localText("; fee {0}", feeText(moves)),
    moves.balances.length === 0 ? "" : localText("; after: {0}", after),
    withinQuotes(moves.account.name),
  );
}

/** Quotation marks inside a name become apostrophes: the sentence's own closing quote is the only one, so a name cannot end it and add a clause. */
function withinQuotes(name: string): string {
  return name.replace(/[\p{Pi}\p{Pf}"＂〝〞〟„‟″❝❞]/gu, "'");
}

/**
 * What moves in one sentence: "Send funds from account 7: 1.5 SOL (1500000000 lamport) to recipient
 * ...; fee ...; after: available_balance 8.5 SOL; account 7 is named “payroll”." `t` translates each template.
 */
export function whatMovesSentence(plan: PlannedWrite, options: { fee?: boolean; t?: Translate } = {}): string {
  return renderText(whatMovesText(plan, options), options.t);
}
