import { describe, expect, it } from "vitest";
import { ConfirmationTokens } from "../src/server/confirmation-token.js";

const nonce = "0123456789abcdef0123456789abcdef";
const bound = { tool: "polkadot_unbond", operator: "treasury-bot", person: null };

describe("confirmation tokens on the wire", () => {
  it("carry the nonce of a prepared intent, signed for one tool and one operator, in under 100 characters", () => {
    const tokens = new ConfirmationTokens();
    const token = tokens.issue(nonce, bound);
    expect(token.length).toBeLessThan(100);
    expect(tokens.open(token, bound)).toEqual({ ok: true, nonce });
    expect(tokens.open(token, { ...bound, tool: "polkadot_rebond" })).toMatchObject({ ok: false, reason: "forged" });
    expect(tokens.open(token, { ...bound, operator: "staking-bot" })).toMatchObject({ ok: false, reason: "forged" });
  });

  it("are bound to the person who ran the dry run", () => {
    const tokens = new ConfirmationTokens();
    const alices = tokens.issue(nonce, { ...bound, person: "alice" });
    expect(tokens.open(alices, { ...bound, person: "alice" })).toEqual({ ok: true, nonce });
    expect(tokens.open(alices, { ...bound, person: "bob" })).toMatchObject({ ok: false, reason: "forged" });
    expect(tokens.open(alices, bound)).toMatchObject({ ok: false, reason: "forged" });
  });

  it("refuse any change to a byte of the token, tokens of another secret, and malformed ones", () => {
    const tokens = new ConfirmationTokens();
    const token = tokens.issue(nonce, bound);
    for (const index of [3, Math.floor(token.length / 2), token.length - 2]) {
      const flipped = `${token.slice(0, index)}${token[index] === "a" ? "b" : "a"}${token.slice(index + 1)}`;
      expect(tokens.open(flipped, bound).ok).toBe(false);
    }
    expect(new ConfirmationTokens().open(token, bound)).toMatchObject({ ok: false, reason: "forged" });
    const shared = Buffer.alloc(32, 7);
    expect(new ConfirmationTokens({ secret: shared }).open(new ConfirmationTokens({ secret: shared }).issue(nonce, bound), bound)).toEqual({ ok: true, nonce });
    for (const malformed of ["v1.e30.x", "v2.nothex.x", `v2.${nonce}`, `v2.${nonce}.a.b`])
      expect(tokens.open(malformed, bound)).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("compare the signature as an exact string: trailing junk, padding or another spelling of the same bytes is refused", () => {
    const tokens = new ConfirmationTokens();
    const token = tokens.issue(nonce, bound);
    const mac = token.split(".")[2] ?? "";
    // The last character carries 4 bits of the MAC and 2 unused ones: the three other characters with the same 4 bits decode to the same bytes.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(mac.at(-1) ?? "");
    const sameBytes = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last + 1] ?? "";
    expect(Buffer.from(`${mac.slice(0, -1)}${sameBytes}`, "base64url")).toEqual(Buffer.from(mac, "base64url"));
    for (const variant of [`${token}=`, `${token}!`, `${token}==`, `${token} `, `${token.slice(0, -1)}${sameBytes}`, token.slice(0, -1)]) {
      expect(tokens.open(variant, bound), variant).toMatchObject({ ok: false, reason: "malformed" });
    }
    expect(tokens.open(token, bound)).toEqual({ ok: true, nonce });
  });
});
