import { describe, expect, it } from "vitest";
import { AmountError, baseUnit, displayUnit, findUnit } from "../../src/index.js";
import { BASE_ONLY, DOT, ETH, SOL, USDC } from "./currencies.js";

describe("displayUnit and baseUnit", () => {
  it("takes the unit at index 1 for display, index 0 when there is one unit", () => {
    expect(displayUnit(SOL).code).toBe("SOL");
    expect(displayUnit(DOT).code).toBe("DOT");
    expect(displayUnit(ETH).code).toBe("ETH");
    expect(displayUnit(USDC).code).toBe("USDC");
    expect(displayUnit(BASE_ONLY).code).toBe("unit");
  });
  it("finds the magnitude-0 unit wherever it is listed", () => {
    expect(baseUnit(ETH)).toEqual({ code: "wei", magnitude: 0 });
    expect(
      baseUnit({
        units: [
          { code: "X", magnitude: 6 },
          { code: "x", magnitude: 0 },
        ],
      }).code,
    ).toBe("x");
    expect(baseUnit(BASE_ONLY).code).toBe("unit");
  });
  it("throws on currencies the schema would refuse", () => {
    expect(() => displayUnit({ name: "EMPTY", units: [] })).toThrow("EMPTY lists no units");
    expect(() => baseUnit({ units: [{ code: "X", magnitude: 6 }] })).toThrow("the currency has no base unit (magnitude 0)");
  });
});

describe("findUnit", () => {
  it("matches exactly first", () => {
    const currency = {
      name: "M",
      units: [
        { code: "mX", magnitude: 3 },
        { code: "MX", magnitude: 6 },
        { code: "x", magnitude: 0 },
      ],
    };
    expect(findUnit(currency, "mX").magnitude).toBe(3);
    expect(findUnit(currency, "MX").magnitude).toBe(6);
    expect(findUnit(currency, "x").magnitude).toBe(0);
  });

  it("takes a unique case-insensitive match", () => {
    expect(findUnit(SOL, "sol").code).toBe("SOL");
    expect(findUnit(ETH, "GWEI").code).toBe("Gwei");
    expect(findUnit(DOT, "planck").code).toBe("Planck");
  });

  it("refuses a case-insensitive match that is not unique", () => {
    const currency = {
      name: "M",
      units: [
        { code: "mX", magnitude: 3 },
        { code: "MX", magnitude: 6 },
        { code: "x", magnitude: 0 },
      ],
    };
    let error: unknown;
    try {
      findUnit(currency, "mx", "max_fees");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AmountError);
    expect(error).toMatchObject({
      field: "max_fees",
      rule: "ambiguous_unit",
      message: 'max_fees: unit "mx" matches mX and MX of M when case is ignored; give the exact code',
    });
  });

  it("refuses unknown codes, listing the known ones", () => {
    expect(() => findUnit(ETH, "ether")).toThrow('amount: unit "ether" is not a unit of ETH; known units: wei, ETH, Gwei');
    expect(() => findUnit({ units: SOL.units }, " SOL")).toThrow('amount: unit " SOL" is not a unit of the currency; known units: lamport, SOL');
    expect(() => findUnit(SOL, "")).toThrow("amount: must name a unit of SOL (one of: lamport, SOL)");
  });
});
