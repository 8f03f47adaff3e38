import { describe, expect, it } from "vitest";
import { renderText, writeSpec } from "@custody/shared";
import { demoForFile, planContext } from "../emulator-harness.js";

// The Ethereum family's spec (shared/src/kinds/ethereum) planned on the demo workspace's eth-staking account.

const demo = demoForFile();
const CONTRACT = "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270";
const CALL_DATA = `0x22895118${"00".repeat(32)}`;

describe("ethereum_stake", () => {
  it("drafts the contract call as one POST /transactions, recognised by its call data, under the smart-contract rule", async () => {
    const amount = 32n * 10n ** 18n;
    const request = {
      kind: "ethereum_stake",
      account: "eth-staking",
      amount,
      max_fees: 10n ** 16n,
      contract: CONTRACT,
      contract_data: CALL_DATA,
      speed: "NORMAL",
    };
    const draft = await writeSpec("ethereum_stake").planAny(planContext(demo.staking()), request, "cw-0123456789abcdef0123");
    expect(draft.call).toMatchObject({ method: "POST", path: "/transactions", body: { account_name: "eth-staking", note: { title: "ethereum stake" } } });
    expect(draft.destinations[0]).toEqual({ role: "contract", value: CONTRACT });
    expect(draft.amounts).toEqual({ amount, max_fees: 10n ** 16n });
    expect(draft.lostAnswer).toEqual({
      by: "reference",
      expected: { amount: amount.toString(), recipient: { network: "Ethereum", address: CONTRACT }, contract_data: CALL_DATA },
    });
    expect(renderText(draft.summary)).toContain(`through the contract ${CONTRACT}`);
  });
});
