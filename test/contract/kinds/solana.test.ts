import { describe, expect, it } from "vitest";
import { renderText, writeSpec } from "@custody/shared";
import { demoForFile, planContext } from "../emulator-harness.js";

// The Solana family's specs (shared/src/kinds/solana) planned on the demo workspace's stakes.

const demo = demoForFile();
const REFERENCE = "cw-0123456789abcdef0123";

describe("Solana stake actions", () => {
  it("drafts a deactivation as the stake's action, with no body, recognised among new transactions by its stake account", async () => {
    const staking = demo.staking();
    const stake = (await staking.listSolanaStakes(1)).find((candidate) => candidate.blockchain_state.status === "activated");
    if (!stake) throw new Error("the demo workspace has no activated stake");
    const draft = await writeSpec("solana_deactivate_stake").planAny(
      planContext(staking),
      { kind: "solana_deactivate_stake", account: "sol-treasury", stake_uid: stake.uid },
      REFERENCE,
    );
    expect(draft.call).toEqual({ method: "POST", path: `/solana/accounts/1/stakes/${encodeURIComponent(stake.uid)}/actions/deactivate`, body: null });
    expect(draft.destinations[0]).toEqual({ role: "stake", value: `${stake.uid} (stake account ${stake.blockchain_state.pub_key})` });
    expect(draft.lostAnswer).toEqual({ by: "new_transactions", expected: expect.objectContaining({ stake_account: stake.blockchain_state.pub_key }) });
    expect(Object.keys(draft.dates ?? {})).toEqual(["withdrawable_at"]);
  });

  it("blocks a split larger than the stake, naming the rule", async () => {
    const staking = demo.staking();
    const stake = (await staking.listSolanaStakes(1)).find((candidate) => candidate.blockchain_state.status === "activated");
    if (!stake) throw new Error("the demo workspace has no activated stake");
    const amount = stake.blockchain_state.total_balance + 1n;
    const draft = await writeSpec("solana_split_stake").planAny(
      planContext(staking),
      { kind: "solana_split_stake", account: "sol-treasury", stake_uid: stake.uid, amount },
      REFERENCE,
    );
    expect(draft.checks.filter((check) => check.severity === "block").map((check) => check.code)).not.toEqual([]);
    expect(draft.balances.map((change) => change.name)).toEqual(["available_balance", "stake total_balance", "new stake total_balance"]);
  });

  it("drafts the two splits from one factory: the same body, each its own action, and the deactivated one dated", async () => {
    const staking = demo.staking();
    const stake = (await staking.listSolanaStakes(1)).find((candidate) => candidate.blockchain_state.status === "activated");
    if (!stake) throw new Error("the demo workspace has no activated stake");
    const request = { account: "sol-treasury", stake_uid: stake.uid, amount: 2_000_000_000n };
    const split = await writeSpec("solana_split_stake").planAny(planContext(staking), { kind: "solana_split_stake", ...request }, REFERENCE);
    const both = await writeSpec("solana_split_deactivate_stake").planAny(
      planContext(staking),
      { kind: "solana_split_deactivate_stake", ...request },
      REFERENCE,
    );
    expect(split.call.path).toMatch(/\/actions\/split$/);
    expect(both.call.path).toMatch(/\/actions\/split_deactivate$/);
    expect(both.call.body).toEqual(split.call.body);
    expect([split.destinations[1], both.destinations[1]]).toMatchObject([
      { role: "into", value: "a new stake" },
      { role: "into", value: "a new stake, deactivated" },
    ]);
    expect(renderText(both.summary)).toMatch(/into a new stake and deactivate the new stake$/);
    expect([split.dates, Object.keys(both.dates ?? {})]).toEqual([undefined, ["withdrawable_at"]]);
  });
});
