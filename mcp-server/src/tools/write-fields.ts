import { Speed } from "@custody/shared";
import { z } from "zod";
import { AccountInput } from "./account-input.js";
import { AmountText, UnitCode } from "./amount-input.js";

/** Input fields shared by the write tools, described once. */
export const WriteFields = {
  account: AccountInput,
  amount: AmountText,
  unit: UnitCode,
  max_fees: z.string().optional().describe("Fee cap; omit to use the estimate"),
  max_fees_unit: z.string().optional(),
  speed: Speed.optional(),
  note: z.string().max(500).optional().describe("Note title (searchable)"),
};

/** The note of a write: the person's text as its title; the correlation reference goes in its content. */
export function noteInput(note: string | undefined): { title: string; content: string } | undefined {
  return note === undefined ? undefined : { title: note, content: "" };
}
