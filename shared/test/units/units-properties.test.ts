import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AMOUNT_RULES, AmountError, formatAmount, formatUnits, parseBaseUnits, parseUnits, toBaseUnits, type CurrencyUnit } from "../../src/index.js";
import { ALL_CURRENCIES } from "./currencies.js";

const RUNS = { numRuns: 400 };

const currencyAndUnit = fc.constantFrom(...ALL_CURRENCIES.flatMap((currency) => currency.units.map((unit: CurrencyUnit) => ({ currency, unit }))));
const currency = fc.constantFrom(...ALL_CURRENCIES);

// Base amounts from 0 to 2^130, with the edges and round numbers drawn on purpose.
const baseAmount = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 130n }),
  fc.bigInt({ min: 0n, max: 10n ** 12n }),
  fc.constantFrom(0n, 1n, 9n, 10n, 2n ** 64n, 2n ** 128n - 1n, 2n ** 128n, 2n ** 256n - 1n),
  fc.tuple(fc.bigInt({ min: 1n, max: 9n }), fc.nat({ max: 40 })).map(([digit, power]) => digit * 10n ** BigInt(power)),
);

const digits = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });

describe("formatting then parsing in the same unit gives the amount back", () => {
  it("for every unit of every currency", () => {
    fc.assert(
      fc.property(baseAmount, currencyAndUnit, (amount, { currency, unit }) => {
        const text = formatUnits(amount, currency, unit.code);
        expect(parseUnits(text, currency, unit.code)).toBe(amount);
      }),
      RUNS,
    );
  });

  it("in the default display unit, and through formatAmount", () => {
    fc.assert(
      fc.property(baseAmount, currency, (amount, currency) => {
        expect(parseUnits(formatUnits(amount, currency), currency)).toBe(amount);
        const both = formatAmount(amount, currency);
        expect(parseBaseUnits(both.base_units)).toBe(amount);
        expect(parseUnits(both.display, currency, both.unit)).toBe(amount);
        expect(both.display).toBe(formatUnits(amount, currency));
      }),
      RUNS,
    );
  });

  it("through both forms of toBaseUnits", () => {
    fc.assert(
      fc.property(baseAmount, currencyAndUnit, (amount, { currency, unit }) => {
        expect(toBaseUnits({ amount: formatUnits(amount, currency, unit.code), unit: unit.code }, currency)).toBe(amount);
        expect(toBaseUnits({ base_units: amount.toString() }, currency)).toBe(amount);
      }),
      RUNS,
    );
  });

  it("agrees with division by 10^magnitude, in canonical form", () => {
    fc.assert(
      fc.property(baseAmount, currencyAndUnit, (amount, { currency, unit }) => {
        const text = formatUnits(amount, currency, unit.code);
        expect(text).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
        const [whole = "", fraction = ""] = text.split(".");
        const scale = 10n ** BigInt(unit.magnitude);
        expect(BigInt(whole)).toBe(amount / scale);
        expect(fraction.length).toBeLessThanOrEqual(unit.magnitude);
        expect(BigInt(fraction.padEnd(unit.magnitude, "0") || "0")).toBe(amount % scale);
      }),
      RUNS,
    );
  });
});

describe("parsing then formatting gives the canonical form", () => {
  it("drops leading zeros, trailing fractional zeros and a bare point", () => {
    fc.assert(
      fc.property(
        currencyAndUnit.chain(({ currency, unit }) =>
          fc.record({
            currency: fc.constant(currency),
            unit: fc.constant(unit),
            whole: digits(1, 45),
            fraction: unit.magnitude === 0 ? fc.constant("") : digits(0, unit.magnitude),
          }),
        ),
        ({ currency, unit, whole, fraction }) => {
          const text = fraction === "" ? whole : `${whole}.${fraction}`;
          const canonicalWhole = whole.replace(/^0+(?=[0-9])/, "");
          const canonicalFraction = fraction.replace(/0+$/, "");
          const canonical = canonicalFraction === "" ? canonicalWhole : `${canonicalWhole}.${canonicalFraction}`;
          const amount = parseUnits(text, currency, unit.code);
          expect(formatUnits(amount, currency, unit.code)).toBe(canonical);
          expect(parseUnits(canonical, currency, unit.code)).toBe(amount);
        },
      ),
      RUNS,
    );
  });
});

describe("anything that is not a plain decimal is refused with a named rule", () => {
  const PLAIN = /^[0-9]+(\.[0-9]+)?$/;
  const nearMisses = fc.string({ unit: fc.constantFrom(..."0123456789.,_'eE+- \t\u00a0\u2212xn"), maxLength: 12 });
  const anything = fc.oneof(nearMisses, fc.string({ unit: "grapheme", maxLength: 8 }));

  it("accepts only digits with at most one inner point and no more decimals than the unit has", () => {
    fc.assert(
      fc.property(anything, currencyAndUnit, fc.constantFrom("amount", "max_fees"), (text, { currency, unit }, field) => {
        const fraction = text.split(".")[1] ?? "";
        const acceptable = PLAIN.test(text) && fraction.length <= unit.magnitude;
        try {
          const amount = parseUnits(text, currency, unit.code, field);
          expect(acceptable).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0n);
        } catch (error) {
          expect(acceptable).toBe(false);
          expect(error).toBeInstanceOf(AmountError);
          const refusal = error as AmountError;
          expect(AMOUNT_RULES).toContain(refusal.rule);
          expect(refusal.field).toBe(field);
          expect(refusal.message.startsWith(`${field}: `)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
