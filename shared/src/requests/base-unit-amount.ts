import type { AmountObject } from "../schemas/amount-input.js";
import type { Currency } from "../schemas/currency.js";
import { InvalidInputError } from "../client/errors.js";

/** The code of the currency's base unit: its one unit of magnitude 0. */
export function baseUnitCode(currency: Pick<Currency, "name" | "units">): string {
  const base = currency.units.filter((unit) => unit.magnitude === 0);
  const [only] = base;
  if (only === undefined || base.length > 1) {
    throw new InvalidInputError("currency", [
      { path: "currency.units", message: `must hold exactly one base unit (magnitude 0); ${currency.name} has ${base.length}` },
    ]);
  }
  return only.code;
}

/** The amount object of a request: base units as a decimal string, in the base unit. */
export function baseUnitAmount(value: bigint, unit: string): AmountObject {
  return { value: value.toString(), unit };
}

/** The amount object where no amount applies (SETPAYEE, WITHDRAWUNBONDED). */
export function noAmount(unit: string): AmountObject {
  return { value: null, unit };
}
