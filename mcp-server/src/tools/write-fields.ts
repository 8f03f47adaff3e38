import { noteTextProblem, Speed, boundedText, INPUT_LIMITS } from "@custody/shared";
import { AccountInput } from "./account-input.js";
import { AmountText, UnitCode } from "./amount-input.js";

/** Input fields shared by the write tools, described once. */
export const WriteFields = {
  account: AccountInput,
  amount: AmountText,
  unit: UnitCode,
  max_fees: boundedText(INPUT_LIMITS.amount).optional().describe("Fee cap; omit to use the estimate"),
  max_fees_unit: boundedText(INPUT_LIMITS.unit).optional().describe("Unit code of max_fees"),
  speed: Speed.optional(),
  note: boundedText(INPUT_LIMITS.note).optional().describe("Note title (searchable)"),
};

/**
 * The note of a write: the person's text as its title; the correlation reference goes in its content.
 * A character that would not show (zero-width, bidirectional control) is refused under `note`.
 */
export function noteInput(note: string | undefined): { title: string; content: string } | undefined {
  if (note === undefined) return undefined;
  const problem = noteTextProblem(note);
  if (problem !== undefined) throw new Error(`note: ${problem}`);
  return { title: note, content: "" };
}
