import { describe, expect, it } from "vitest";
import { parseJsonExact, stringifyJsonExact } from "../../src/index.js";

describe("exact JSON", () => {
  it("keeps integers above 2^53 as their digits", () => {
    expect(parseJsonExact('{"a":123456789012345678901,"b":5}')).toEqual({ a: "123456789012345678901", b: 5 });
  });
  it("leaves long digit runs inside strings alone", () => {
    expect(parseJsonExact('{"s":"12345678901234567890","n":1}')).toEqual({ s: "12345678901234567890", n: 1 });
    expect(parseJsonExact('{"s":"say \\"12345678901234567890\\"","n":12345678901234567890}')).toEqual({
      s: 'say "12345678901234567890"',
      n: "12345678901234567890",
    });
  });
  it("keeps safe integers and decimals as numbers", () => {
    expect(parseJsonExact("[9007199254740991, 1.25, 1234567890123456.5]")).toEqual([9007199254740991, 1.25, 1234567890123456.5]);
  });
  it("with integersAsWritten, keeps as written a number with a sign, fraction or exponent that reads as an integer", () => {
    const text = '{"a":1.0,"b":1e6,"c":-0,"d":-5,"e":4999999999.99999999,"f":1.25,"g":7,"h":"1.0","i":123456789012345678901}';
    expect(parseJsonExact(text, { integersAsWritten: true })).toEqual({
      a: "1.0",
      b: "1e6",
      c: "-0",
      d: "-5",
      e: "4999999999.99999999",
      f: 1.25,
      g: 7,
      h: "1.0",
      i: "123456789012345678901",
    });
    expect(parseJsonExact(text)).toMatchObject({ a: 1, b: 1_000_000, d: -5, e: 5_000_000_000, f: 1.25 });
  });
  it("leaves a number JSON does not allow for JSON.parse to refuse", () => {
    for (const text of ['{"a":01}', '{"a":-01}', '{"a":012345678901234567890}']) {
      expect(() => parseJsonExact(text, { integersAsWritten: true }), text).toThrow(SyntaxError);
      expect(() => parseJsonExact(text), text).toThrow(SyntaxError);
    }
  });
  it("writes bigints as raw JSON integers", () => {
    expect(stringifyJsonExact({ amount: 123456789012345678901n, v: "x", n: null, u: undefined, list: [1n, undefined] })).toBe(
      '{"amount":123456789012345678901,"v":"x","n":null,"list":[1,null]}',
    );
  });
  it("round-trips what it writes", () => {
    const value = { big: 2n ** 100n, small: 7n, text: 'a"b', nested: [{ x: 10n ** 30n }] };
    expect(parseJsonExact(stringifyJsonExact(value))).toEqual({
      big: (2n ** 100n).toString(),
      small: 7,
      text: 'a"b',
      nested: [{ x: (10n ** 30n).toString() }],
    });
  });
});
