import type { AmountObject } from "../../schemas/amount-input.js";

/** The amount object of a request: base units as a decimal string, in the currency's base unit code. */
export function amountObject(value: bigint, baseUnitCode: string): AmountObject {
  return { value: value.toString(), unit: baseUnitCode };
}

/** The amount object where no amount applies (SETPAYEE, WITHDRAWUNBONDED). */
export function nullAmountObject(baseUnitCode: string): AmountObject {
  return { value: null, unit: baseUnitCode };
}
