import { AmountError, baseUnit, findUnit, parseBaseUnits, type AmountInput, type Currency } from "@custody/shared";
import { badRequest } from "../domain-error.js";

/**
 * Service bodies are read with parseJsonExact keeping integers as written, so a JSON integer above
 * 2^53, or one written with a sign, a fraction or an exponent ("1.0", "1e6"), arrives here as its
 * text and meets the string rules; any number left is a plain safe integer or a true fraction (1.5),
 * refused since it may already have lost precision.
 */
function readValue(value: string | number, field: string): bigint {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    throw badRequest(
      `${field}: a JSON number must be a non-negative whole number of base units written in plain digits (no fraction, exponent or sign), got ${value}`,
    );
  }
  try {
    return parseBaseUnits(value, field);
  } catch (error) {
    if (error instanceof AmountError) throw badRequest(error.message);
    throw error;
  }
}

/** Zero in any unit: the number 0 or a string of zeros. */
function isZero(value: string | number): boolean {
  return typeof value === "number" ? value === 0 : /^0+$/.test(value);
}

/**
 * `amount` or `max_fees` of POST /transactions and the approve endpoint, in base units. Since
 * release 4.21 only base units are accepted: a plain string of digits, or `{value, unit}` whose
 * unit is the currency's unit of magnitude 0. A zero or null value means the same in every unit,
 * so it is accepted in any of the currency's units (the Polkadot examples write
 * `max_fees: { value: "0", unit: "DOT" }`). A null value gives null, allowed only when
 * `allowNull` (amount of SETPAYEE and WITHDRAWUNBONDED).
 */
export function parseAmountField(input: AmountInput, field: string, currency: Currency, allowNull: boolean): bigint | null {
  if (typeof input === "string") return readValue(input, field);
  let unit;
  try {
    unit = findUnit(currency, input.unit, `${field}.unit`);
  } catch (error) {
    if (error instanceof AmountError) throw badRequest(error.message);
    throw error;
  }
  if (input.value === null) {
    if (allowNull) return null;
    throw badRequest(`${field}.value: must be a whole number of base units; null is only for the amount of Polkadot SETPAYEE and WITHDRAWUNBONDED`);
  }
  if (unit.magnitude !== 0) {
    if (isZero(input.value)) return 0n;
    const base = baseUnit(currency);
    throw badRequest(
      `${field}.unit: only base units are accepted (since release 4.21): use ${base.code} (magnitude 0) and ` +
        `give the value in ${base.code}, got ${unit.code} (magnitude ${unit.magnitude})`,
    );
  }
  return readValue(input.value, `${field}.value`);
}
