import { findUnit, toBaseUnits, type Currency, boundedText, INPUT_LIMITS } from "@custody/shared";

/** Undescribed in the schema: the server instructions say how amounts are given, once for every tool. */
export const AmountText = boundedText(INPUT_LIMITS.amount);
export const UnitCode = boundedText(INPUT_LIMITS.unit).describe("SOL/lamport, DOT/planck or ETH/Gwei/wei");

/** The unit field of one network's tools, with that network's codes. */
export const NetworkUnitCode = {
  Solana: boundedText(INPUT_LIMITS.unit).describe('Unit code: "SOL" or "lamport"'),
  Polkadot: boundedText(INPUT_LIMITS.unit).describe('Unit code: "DOT" or "planck"'),
  Ethereum: boundedText(INPUT_LIMITS.unit).describe('Unit code: "ETH", "Gwei" or "wei"'),
} as const;

/**
 * An amount given as `amount` and `unit`, in base units. Each error names the tool's own field:
 * a unit that is not one of the currency's under the unit's field, a bad amount under the amount's.
 */
export function amountField(currency: Currency, amount: string, unit: string, field = "amount", unitField = "unit"): bigint {
  const found = findUnit(currency, unit, unitField);
  return toBaseUnits({ amount, unit: found.code }, currency, field);
}

/** An optional amount whose unit must be given with it. */
export function optionalAmountField(
  currency: Currency,
  amount: string | undefined,
  unit: string | undefined,
  field: string,
  unitField: string,
): bigint | undefined {
  if (amount === undefined) {
    if (unit !== undefined) throw new Error(`${unitField}: given without ${field}; give both or neither`);
    return undefined;
  }
  if (unit === undefined)
    throw new Error(`${unitField}: required with ${field} (a unit code of ${currency.name}, e.g. ${currency.units.map((u) => u.code).join(", ")})`);
  return amountField(currency, amount, unit, field, unitField);
}
