import { describe, expect, it } from "vitest";
import { nearNames } from "../../../src/kinds/kit/near-names.js";

const DEMO = ["sol-treasury", "sol-cold", "dot-staking", "dot-vault", "eth-staking", "eth-ops"];

describe("names a mistyped account name most likely meant", () => {
  it.each([
    ["eth_ops", ["eth-ops"]],
    ["sol treasury", ["sol-treasury"]],
    ["dot-stake", ["dot-staking"]],
    ["Sol-Teasury", ["sol-treasury"]],
    ["sol-trezury", ["sol-treasury"]],
    ["eht-ops", ["eth-ops"]],
    ["sol", ["sol-treasury", "sol-cold"]],
  ])("%s: %j", (input, expected) => {
    expect(nearNames(input, DEMO)).toEqual(expected);
  });

  it("suggests nothing far from every name", () => {
    expect(nearNames("payroll", DEMO)).toEqual([]);
    expect(nearNames("btc-ops", DEMO)).toEqual(["eth-ops"]);
    expect(nearNames("   ", DEMO)).toEqual([]);
  });

  it("keeps the closest first and at most three", () => {
    expect(nearNames("scale-0005", ["scale-0115", "scale-1234", "scale-0006"])).toEqual(["scale-0006", "scale-0115"]);
    expect(nearNames("scale-0005", ["scale-0115", "scale-0006", "scale-0004", "scale-0007"])).toEqual(["scale-0006", "scale-0004", "scale-0007"]);
  });
});
