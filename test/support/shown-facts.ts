import { sanitizeUntrustedText } from "@custody/shared";
import { expect } from "vitest";

// Issue 18, point 1: names built to be long once shown, and the check that what moves comes first
// whatever the name, shared by the tests of every surface that shows a write to a person.

/** 487 characters; each U+200B is shown as an 8-character escape, so the shown name is 2,167 long. */
export const LONG_NAME = `payroll${"a\u200B".repeat(240)}`;
/** 2,000 invisible characters, zero-width spaces and tag characters mixed. */
export const INVISIBLE_NAME = Array.from({ length: 2000 }, (_, index) => (index % 2 === 0 ? "\u200B" : String.fromCodePoint(0xe0041 + (index % 26)))).join("");
export const HOSTILE_NAMES = { "a 487-character name": LONG_NAME, "a name of 2,000 invisible characters": INVISIBLE_NAME };

/**
 * The facts appear in this order, all within the first `within` characters of what is shown, and
 * the name is never shown whole before them (its sanitised form beyond a budget appears, if at all, after).
 */
export function expectFactsFirst(shown: string, facts: string[], name: string, within: number): void {
  let at = 0;
  for (const fact of facts) {
    const found = shown.indexOf(fact, at);
    expect(found, `"${fact}" after position ${at} in:\n${shown.slice(0, 1500)}`).toBeGreaterThanOrEqual(at);
    at = found + fact.length;
  }
  expect(at, `what moves ends within ${within} characters`).toBeLessThanOrEqual(within);
  const whole = sanitizeUntrustedText(name, Number.POSITIVE_INFINITY);
  if (whole.length > 200) {
    const first = shown.indexOf(whole.slice(100, 300));
    expect(first === -1 || first > at, "the whole name comes only after what moves").toBe(true);
  }
}
