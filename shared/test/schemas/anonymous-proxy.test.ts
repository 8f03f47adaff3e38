import { describe, expect, it } from "vitest";
import { AnonymousProxy, parseJsonExact, PolkadotCoinFields, stringifyJsonExact } from "../../src/index.js";
import * as ex from "./spec-examples.js";

/** The later form: the single frozen field, as the emulator writes it. */
const pureProxy = {
  address: "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3",
  balances: { available: 0, bonded: 0, free: 0, reserved: 0, total: 0, frozen: 0 },
  block_height: 27_000_000,
  created_at: "2025-06-01T10:00:00.000Z",
  ext_index: 0,
  index: 0,
  is_controller: false,
  is_main: false,
  kind: "Staking",
};

describe("Polkadot coin_fields.anonymous_proxy (an object in the spec)", () => {
  it("parses the spec's fields with the single frozen balance, balances as base-unit bigints", () => {
    const proxy = AnonymousProxy.parse(pureProxy);
    expect(proxy.balances).toEqual({ available: 0n, bonded: 0n, free: 0n, reserved: 0n, total: 0n, frozen: 0n });
    expect(proxy).toMatchObject({ block_height: 27_000_000, ext_index: 0, index: 0, is_controller: false, is_main: false, kind: "Staking" });
  });

  it("parses the legacy fee_frozen/misc_frozen form and keeps a balance above 2^53 exact", () => {
    expect(PolkadotCoinFields.parse(ex.polkadotAccountLegacy.coin_fields).anonymous_proxy?.kind).toBe("Any");
    const text = stringifyJsonExact({ ...pureProxy, balances: { ...pureProxy.balances, free: 9_007_199_254_740_993n, total: 9_007_199_254_740_993n } });
    expect(AnonymousProxy.parse(parseJsonExact(text)).balances.free).toBe(9_007_199_254_740_993n);
  });

  it("refuses a proxy without its balances' frozen field, or with a negative block height", () => {
    const { frozen: _frozen, ...noFrozen } = pureProxy.balances;
    expect(AnonymousProxy.safeParse({ ...pureProxy, balances: noFrozen }).success).toBe(false);
    expect(AnonymousProxy.safeParse({ ...pureProxy, block_height: -1 }).success).toBe(false);
  });
});
