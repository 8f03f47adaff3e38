import { describe, expect, it } from "vitest";
import { z } from "zod";
import { epochOrNone, parseJsonExact, SOLANA_EPOCH_NONE, SolanaEpoch, SolanaStake, stringifyJsonExact } from "../../src/index.js";
import * as ex from "./spec-examples.js";

const withEpochs = (activation: unknown, deactivation: unknown) => ({
  ...ex.solanaStake,
  blockchain_state: { ...ex.solanaStake.blockchain_state, activation_epoch: activation, deactivation_epoch: deactivation },
});

describe("Solana stake epochs (blockchain_state.activation_epoch, deactivation_epoch: integer)", () => {
  it("reads u64::MAX, Solana's 'not deactivated', exactly from the wire text", () => {
    const text = stringifyJsonExact(withEpochs(420, SOLANA_EPOCH_NONE));
    expect(text).toContain('"deactivation_epoch":18446744073709551615');
    const stake = SolanaStake.parse(parseJsonExact(text));
    expect(stake.blockchain_state.deactivation_epoch).toBe(18_446_744_073_709_551_615n);
    expect(stake.blockchain_state.activation_epoch).toBe(420n);
    expect(epochOrNone(stake.blockchain_state.deactivation_epoch)).toBeNull();
  });

  it("keeps accepting null from older data, and a plain epoch", () => {
    expect(SolanaStake.parse(ex.solanaStake).blockchain_state.deactivation_epoch).toBeNull();
    const deactivated = SolanaStake.parse(withEpochs(420, 431)).blockchain_state;
    expect(deactivated.deactivation_epoch).toBe(431n);
    expect(epochOrNone(deactivated.deactivation_epoch)).toBe(431n);
    expect(epochOrNone(null)).toBeNull();
  });

  it("writes epochs back as exact JSON integers", () => {
    const stake = SolanaStake.parse(withEpochs(420, "18446744073709551615"));
    const text = stringifyJsonExact(z.encode(SolanaStake, stake));
    expect(text).toContain('"activation_epoch":420,');
    expect(text).toContain('"deactivation_epoch":18446744073709551615,');
  });

  it.each([
    [-1, "a negative epoch"],
    [1.5, "a fraction"],
    ["18446744073709551616", "above u64::MAX"],
    ["0x10", "hex"],
    ["007", "leading zeros"],
    [2 ** 60, "an unsafe JSON number (already rounded)"],
    [true, "a boolean"],
  ] as [unknown, string][])("refuses %s (%s), naming the rule", (value) => {
    const result = SolanaEpoch.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^must be an epoch: a non-negative JSON integer, at most 18446744073709551615/);
    expect(SolanaStake.safeParse(withEpochs(420, value)).success).toBe(false);
  });
});
