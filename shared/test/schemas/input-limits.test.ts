import { z } from "zod";
import { describe, expect, it } from "vitest";
import { boundedText, formatIssues, INPUT_LIMITS, lengthIssue, lengthProblem, OperatorName } from "../../src/index.js";

describe("input limits", () => {
  it("refuse a text by its length first, and stop there: no later check or refinement reads it", () => {
    let read = 0;
    const Amount = boundedText(INPUT_LIMITS.amount)
      .regex(/^[0-9.]+$/)
      .refine(() => {
        read += 1;
        return true;
      });
    const refused = Amount.safeParse("9".repeat(3_000_000));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual(["at most 80 characters, got 3000000"]);
    expect(read).toBe(0);
    expect(Amount.safeParse("9".repeat(80)).success).toBe(true);
    expect(read).toBe(1);
  });

  it("name the field and the limit in a message", () => {
    const Input = z.strictObject({ amount: boundedText(INPUT_LIMITS.amount), account: z.union([z.number(), boundedText(INPUT_LIMITS.account_name)]) });
    const refused = Input.safeParse({ amount: "1".repeat(81), account: "a".repeat(300) });
    expect(formatIssues(refused.error!)).toBe("amount: at most 80 characters, got 81; account: at most 256 characters, got 300");
    expect(lengthIssue("recipient", "x".repeat(129), INPUT_LIMITS.address)).toEqual({ path: "recipient", message: "at most 128 characters, got 129" });
    expect(lengthIssue("recipient", "x".repeat(128), INPUT_LIMITS.address)).toBeUndefined();
    expect(lengthProblem("note", "x".repeat(501), INPUT_LIMITS.note)).toBe("note: at most 500 characters, got 501");
  });

  it("keep a union's own message when no option is of the value's type", () => {
    const Account = z.union([z.number(), boundedText(10)], { error: "must be an id or a name" });
    expect(formatIssues(Account.safeParse(true).error!)).toBe("(root): must be an id or a name");
  });

  it("bound an operator name before its format is read", () => {
    expect(formatIssues(OperatorName.safeParse(" ".repeat(200)).error!)).toBe("(root): at most 128 characters, got 200");
  });
});
