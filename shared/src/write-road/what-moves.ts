import { baseUnit } from "../units/currency-units.js";
import type { FormattedAmount } from "../units/format-units.js";
import { oneLineUntrusted } from "../untrusted/untrusted-text.js";
import { shortenedText } from "../untrusted/shortened-text.js";
import type { Destination } from "../kinds/kit/write-spec.js";
import type { PlannedWrite } from "./planned-write.js";
import { english, type Translate } from "../l10n/translate.js";

// What moves, the first thing every surface shows a person about a write: the account (name and
// id), the amount in both units, where it goes, the fee and the balances after, in this order and
// before any workspace text that can be long. Names and addresses are held to a budget, so no
// name, however long or full of hidden characters, pushes the rest off the screen or out of a cap.

/** Shown characters of an account's name; its id is always shown beside it. */
const SHOWN_NAME_BUDGET = 64;
/** Shown characters of a recipient, validator, contract, stake or payee (an address is at most 128 when typed). */
const SHOWN_DESTINATION_BUDGET = 256;

type RoleText = (t: Translate, value: string) => string;

/** How the one-sentence form leads into each destination, and its line in what moves. */
const ROLE_TEXTS: Record<Destination["role"], { lead: RoleText; line: RoleText }> = {
  transaction: { lead: (t, value) => t("of transaction {0}", value), line: (t, value) => t("Transaction: {0}", value) },
  recipient: { lead: (t, value) => t("to recipient {0}", value), line: (t, value) => t("Recipient: {0}", value) },
  validator: { lead: (t, value) => t("to validator {0}", value), line: (t, value) => t("Validator: {0}", value) },
  contract: { lead: (t, value) => t("through contract {0}", value), line: (t, value) => t("Contract: {0}", value) },
  withdrawals: { lead: (t, value) => t("withdrawals to {0}", value), line: (t, value) => t("Withdrawals to: {0}", value) },
  stake: { lead: (t, value) => t("on stake {0}", value), line: (t, value) => t("Stake: {0}", value) },
  payee: { lead: (t, value) => t("rewards to {0}", value), line: (t, value) => t("Rewards destination: {0}", value) },
  into: { lead: (t, value) => t("into {0}", value), line: (t, value) => t("Into: {0}", value) },
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

function amountText(moves: WhatMoves, t: Translate): string {
  const amount = moves.amount;
  if (amount === null) return t("none (no funds move)");
  if (amount.name === "amount") return t("{0} {1} ({2} {3})", amount.display, amount.unit, amount.base_units, moves.base_unit);
  return t("{0} {1} ({2} {3}), the {4}", amount.display, amount.unit, amount.base_units, moves.base_unit, amount.name.replace(/_/g, " "));
}

function feeText(moves: WhatMoves, t: Translate): string {
  if ("unknown" in moves.fee) return t("not known ({0})", moves.fee.unknown);
  const fee = moves.fee.estimated;
  return t("{0} {1} ({2} {3})", fee.display, fee.unit, fee.base_units, moves.base_unit);
}

function accountText(moves: WhatMoves, quote: QuoteText, t: Translate): string {
  return t("{0} (id {1})", quote("account.name", moves.account.name), moves.account.id);
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
        ? t("; max_fees {0} {1}", cap.display, cap.unit)
        : t("; max_fees {0} {1} proposed from it", cap.display, cap.unit);
  const balances = moves.balances
    .map((change) => t("{0} {1} → {2} {3}", change.name, change.before.display, change.after.display, change.after.unit))
    .join("; ");
  return [
    t("Account: {0}", accountText(moves, quote, t)),
    t("Amount: {0}", amountText(moves, t)),
    ...moves.destinations.map((destination) => ROLE_TEXTS[destination.role].line(t, quote(destination.role, destination.value))),
    "estimated" in moves.fee ? t("Fee: {0} estimated{1}.", feeText(moves, t), capText) : t("Fee: {0}{1}.", feeText(moves, t), capText),
    ...(balances === "" ? [] : [t("Balances: {0}.", balances)]),
  ];
}

/**
 * What moves in one sentence, for a modal's message or a notification: "Send funds from payroll
 * (id 7): 1.5 SOL (1500000000 lamport) to recipient ...; fee ...; after: available_balance 8.5 SOL."
 * `fee: false` leaves the fee out: the last plan before a POST does not estimate it again. `t`
 * translates each template, the write's title too (the bundle's extraction takes the titles from
 * kinds/registry-identities.ts).
 */
export function whatMovesSentence(plan: PlannedWrite, options: { fee?: boolean; t?: Translate } = {}): string {
  const t = options.t ?? english;
  const moves = whatMoves(plan);
  const to = moves.destinations.map((destination) => ROLE_TEXTS[destination.role].lead(t, destination.value)).join(", ");
  const after = moves.balances.map((change) => t("{0} {1} {2}", change.name, change.after.display, change.after.unit)).join(", ");
  const fee = options.fee === false ? "" : t("; fee {0}", feeText(moves, t));
  return t(
    "{0} from {1}: {2} {3}{4}{5}.",
    t(moves.title),
    accountText(moves, asShown, t),
    amountText(moves, t),
    to,
    fee,
    after === "" ? "" : t("; after: {0}", after),
  );
}
