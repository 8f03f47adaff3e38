import { describe, expect, it } from "vitest";
import { sanitizeUntrustedValue } from "../../src/index.js";

describe("sanitizeUntrustedValue", () => {
  it("sanitises every string at any depth and leaves numbers, bigints, booleans and null as they are", () => {
    const value = { name: "pay\u202Eroll", n: 1, big: 10n, ok: true, none: null, deep: [{ note: "a\u200Bb" }, "plain"] };
    expect(sanitizeUntrustedValue(value)).toEqual({ name: "pay\\u{202E}roll", n: 1, big: 10n, ok: true, none: null, deep: [{ note: "a\\u{200B}b" }, "plain"] });
    // The value given is not changed.
    expect(value.deep[0]).toEqual({ note: "a\u200Bb" });
  });

  it("returns an array or plain object with nothing to change as it is, and copies only the branches that change", () => {
    const clean = { account: { id: 1, name: "sol-treasury", balance: { base_units: "5", unit: "SOL" } }, list: ["a", "b"] };
    expect(sanitizeUntrustedValue(clean)).toBe(clean);
    const dirty = { ...clean, note: "x\u2066" };
    const result = sanitizeUntrustedValue(dirty) as typeof dirty;
    expect(result).not.toBe(dirty);
    expect(result.note).toBe("x\\u{2066}");
    expect(result.account).toBe(clean.account);
    expect(Object.keys(result)).toEqual(["account", "list", "note"]);
  });

  it('keeps a "__proto__" key as an own field, never as the prototype', () => {
    const parsed = JSON.parse('{"a":"x\\u200b","__proto__":{"polluted":"y\\u200b"}}') as Record<string, unknown>;
    const result = sanitizeUntrustedValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(JSON.stringify(result)).toBe('{"a":"x\\\\u{200B}","__proto__":{"polluted":"y\\\\u{200B}"}}');
  });

  it("makes another object a plain object of its own fields", () => {
    class Holder {
      constructor(readonly text: string) {}
    }
    const result = sanitizeUntrustedValue({ holder: new Holder("ok"), when: new Date(0) }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result.holder)).toBe(Object.prototype);
    expect(result).toEqual({ holder: { text: "ok" }, when: {} });
  });
});
