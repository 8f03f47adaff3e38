import { describe, expect, it } from "vitest";
import { ConfirmationTokens } from "../src/guard/confirmation-token.js";
import { TestClock } from "./harness/test-clock.js";

const claims = { operator: "treasury-bot", tool: "polkadot_unbond", digest: "a".repeat(64), state: { correlation_id: "cw-0123456789abcdef0123", max_fees: null } };
const expected = { operator: "treasury-bot", tool: "polkadot_unbond" };

describe("confirmation tokens", () => {
  it("carry the claims they were issued with, once", () => {
    const tokens = new ConfirmationTokens();
    const { token } = tokens.issue(claims);
    const first = tokens.redeem(token, expected);
    expect(first).toMatchObject({ ok: true, claims: { ...claims } });
    expect(tokens.redeem(token, expected)).toMatchObject({ ok: false, reason: "reused" });
  });

  it("expire after their lifetime, and a lifetime under a second is refused", () => {
    const clock = new TestClock();
    const tokens = new ConfirmationTokens({ now: clock.now, ttlMs: 60_000 });
    const { token, expiresAt } = tokens.issue(claims);
    expect(expiresAt.getTime() - clock.now().getTime()).toBe(60_000);
    clock.advance(59_999);
    const early = tokens.issue(claims).token;
    expect(tokens.redeem(early, expected).ok).toBe(true);
    clock.advance(1);
    expect(tokens.redeem(token, expected)).toMatchObject({ ok: false, reason: "expired" });
    expect(() => new ConfirmationTokens({ ttlMs: 500 })).toThrow(/at least 1 second/);
  });

  it("are bound to the operator and the tool", () => {
    const tokens = new ConfirmationTokens();
    expect(tokens.redeem(tokens.issue(claims).token, { ...expected, operator: "staking-bot" })).toMatchObject({ ok: false, reason: "other_operator" });
    expect(tokens.redeem(tokens.issue(claims).token, { ...expected, tool: "polkadot_rebond" })).toMatchObject({ ok: false, reason: "other_tool" });
  });

  it("refuse any change to a byte of the token, and tokens of another key", () => {
    const tokens = new ConfirmationTokens();
    const { token } = tokens.issue(claims);
    for (const index of [3, Math.floor(token.length / 2), token.length - 2]) {
      const flipped = `${token.slice(0, index)}${token[index] === "A" ? "B" : "A"}${token.slice(index + 1)}`;
      expect(tokens.redeem(flipped, expected).ok).toBe(false);
    }
    const other = new ConfirmationTokens().issue(claims).token;
    expect(tokens.redeem(other, expected)).toMatchObject({ ok: false, reason: "forged" });
    expect(tokens.redeem("v1.e30", expected)).toMatchObject({ ok: false, reason: "malformed" });
    expect(tokens.redeem(token, expected).ok).toBe(true);
  });
});
