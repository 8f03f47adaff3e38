import { expect } from "vitest";
import { Finding } from "../../../src/schemas/finding.js";

export type Expected = ReadonlyArray<readonly [code: string, severity: Finding["severity"]]>;

/** An expected finding that only informs. */
export const info = (code: string) => [code, "info"] as const;
/** An expected finding that blocks the write. */
export const block = (code: string) => [code, "block"] as const;

/** Asserts the findings, in order, by code and severity; that each is well formed; and that every non-info message names `fields`. */
export function expectFindings(findings: readonly Finding[], expected: Expected, fields: readonly string[] = []): void {
  expect(findings.map((item) => [item.code, item.severity])).toEqual(expected);
  for (const item of findings) {
    expect(Finding.parse(item)).toEqual(item);
    for (const value of Object.values(item.facts)) expect(typeof value).toBe("string");
  }
  const flagged = findings.filter((item) => item.severity !== "info");
  for (const field of fields) {
    for (const item of flagged) expect(item.message, `${item.code} should name ${field}`).toContain(field);
  }
}
