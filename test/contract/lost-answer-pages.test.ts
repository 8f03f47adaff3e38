import { describe, expect, it } from "vitest";
import { lookUpLostAnswer, planWrite, recognitionOf, unansweredWrite } from "@custody/shared/road-steps";
import { control, demoForFile, planContext } from "./emulator-harness.js";

// A stake call carries no note: its lost answer is looked up among the account's transactions newer
// than the watermark read before it was reserved. On a busy account those fill more than one page.

const demo = demoForFile();
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

describe("looking up a stake call's lost answer on a busy account", () => {
  it("finds the stake that landed when more than 200 transactions were made on the account after it", async () => {
    const [treasury, staking] = [demo.treasury(), demo.staking()];
    const stakes = await staking.listSolanaStakes(1);
    const active = stakes.find((stake) => stake.blockchain_state.status === "activated" && stake.actions.some((action) => action.endsWith("/deactivate")));
    expect(active).toBeDefined();
    const plan = await planWrite(planContext(staking), { kind: "solana_deactivate_stake", account: 1, stake_uid: active!.uid });
    const recognition = await recognitionOf(staking, plan);
    const landed = await plan.send(staking, {});
    // 250 sends by another operator on the same account after it: the stake is on the second page.
    const body = {
      amount: { value: "1000", unit: "lamport" },
      max_fees: { value: "10000", unit: "lamport" },
      recipient: RECIPIENT,
      speed: "NORMAL" as const,
      coin_fields: { type: "SEND" as const },
    };
    for (let sent = 0; sent < 250; sent += 1) await treasury.createTransaction({ ...body, account_name: plan.account.name });
    const firstPage = await staking.searchTransactions({ account_id: 1, page: 1, page_size: 200 });
    expect(firstPage.edges.map((edge) => edge.node.id)).not.toContain(landed.id);
    expect(await lookUpLostAnswer(staking, unansweredWrite(plan, recognition))).toMatchObject({ found: "one", transaction: { id: landed.id } });
  }, 60_000);

  it("says so when more transactions than its cap were made since the write was reserved, and leaves the outcome unknown", async () => {
    const staking = demo.staking();
    const plan = await planWrite(planContext(staking), { kind: "solana_create_stake", account: "sol-treasury", amount: 5_000_000_000n, validator: RECIPIENT });
    const before = await recognitionOf(staking, plan);
    // One busy account with 2,100 transactions made after the watermark.
    const seeded = (await control(demo.emulator(), "POST", "/seed/scale", { accounts: 1, transactions: 2_100, prefix: "busy-" })) as {
      accounts: { first_id: number };
      transactions: { first_id: number };
    };
    const busy = seeded.accounts.first_id;
    expect((await staking.searchTransactions({ account_id: busy, page_size: 1 })).page_info.count).toBe(2_100);
    const write = unansweredWrite(plan, { ...before, account_id: busy, watermark: seeded.transactions.first_id - 1 });
    const result = await lookUpLostAnswer(staking, write);
    expect(result.found).not.toBe("one");
    expect(result).toMatchObject({ unread: expect.stringContaining(`the look-up read only the newest 2000 transactions of account ${busy} (its cap)`) });
  }, 60_000);
});
