import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import type { LoadMoreNode } from "../../src/views/nodes/load-more-node.js";
import { chooseAccount } from "../../src/input/pick-account.js";
import { chooseStake, ONE_STEP_ACCOUNTS } from "../../src/input/pick-stake.js";
import type { Prompter } from "../../src/input/prompter.js";
import { startHarness, treeLines, type Harness, type TreeLine } from "./support/extension-harness.js";

// The old read cache stopped at 50 pages of 200 accounts, so a workspace of 10,001 showed
// "Could not load accounts". The views now read a page at a time and offer "Load more".
const SEEDED = 10_001;
const PAGE = 200;

const roots = (lines: readonly TreeLine[]) => lines.filter((line) => line.depth === 0);

describe("the Accounts view of a workspace larger than the old cap (10,000 accounts)", () => {
  let harness: Harness;
  let total: number;
  beforeAll(async () => {
    harness = await startHarness();
    const seeded = await fetch(`${harness.controlUrl}/seed/scale`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ accounts: SEEDED, transactions: 300, operator: "treasury-bot" }),
    });
    expect(seeded.status).toBe(200);
    total = (await harness.client.listAccounts({ page: 1, page_size: 1 })).page_info.count;
    expect(total).toBe(SEEDED + 6);
    harness.provider("accounts").refresh();
    harness.provider("stakes").refresh();
    harness.provider("transactions").refresh();
  }, 180_000);
  afterAll(async () => {
    await harness.close();
  });

  it("shows the first page at once, grouped by network, and ends with Load more accounts", async () => {
    const lines = await treeLines(harness.provider("accounts"), 2);
    expect(lines.some((line) => line.contextValue === "error")).toBe(false);
    expect(roots(lines).map((line) => line.label)).toEqual(["Solana", "Polkadot", "Ethereum", "Load more accounts..."]);
    const accounts = lines.filter((line) => line.depth === 1);
    expect(accounts).toHaveLength(PAGE);
    for (const group of roots(lines).slice(0, 3)) expect(group.description).toMatch(/^\d+ accounts so far$/);
    expect(roots(lines).at(-1)?.description).toBe(`200 of ${total.toLocaleString("en-US")} accounts shown`);
    expect(accounts.map((line) => line.label)).toContain("sol-treasury");
  });

  it("Load more adds the next page under the networks; every account is reachable, without an error", async () => {
    let lines = await treeLines(harness.provider("accounts"), 1);
    await (lines.at(-1)?.node as LoadMoreNode).load();
    lines = await treeLines(harness.provider("accounts"), 2);
    expect(lines.filter((line) => line.depth === 1)).toHaveLength(2 * PAGE);
    expect(roots(lines).at(-1)?.description).toBe(`400 of ${total.toLocaleString("en-US")} accounts shown`);

    const more = roots(lines).at(-1)?.node as LoadMoreNode;
    for (let read = 2 * PAGE; read < total; read += PAGE) await more.load();
    lines = await treeLines(harness.provider("accounts"), 2);
    expect(roots(lines).map((line) => line.label)).toEqual(["Solana", "Polkadot", "Ethereum"]);
    expect(roots(lines).map((line) => line.description)).toEqual(["3,336 accounts", "3,336 accounts", "3,335 accounts"]);
    const names = new Set(lines.filter((line) => line.depth === 1).map((line) => line.label));
    expect(names.size).toBe(total);
    expect(names.has("scale-10001")).toBe(true);
  }, 120_000);

  it("the Stakes and Transactions views read pages too: no error at this size", async () => {
    const stakes = await treeLines(harness.provider("stakes"), 1);
    expect(stakes.map((line) => line.label)).toEqual(["Solana stakes", "Ethereum positions", "Load more accounts..."]);
    const transactions = await treeLines(harness.provider("transactions"), 1);
    expect(transactions.some((line) => line.contextValue === "error")).toBe(false);
    expect(transactions.at(-1)?.label).toBe("Load older transactions...");
  });

  it("offers every account of the workspace in the palette's account picker, past the old cap", async () => {
    let offered = 0;
    const picker: Prompter = {
      pick: async (_title, items) => {
        offered = items.length;
        return items.find((item) => item.label === "scale-10001")?.value;
      },
      input: async () => undefined,
      confirm: async () => false,
      choose: async () => undefined,
    };
    const choice = await chooseAccount(harness.client, picker, undefined, { title: "Account" });
    expect(offered).toBe(total);
    expect(choice?.account.name).toBe("scale-10001");
  }, 60_000);

  it("asks for the Solana account before listing stakes when there are more than a quick pick can list at once", async () => {
    const asked: { placeholder: string; labels: string[] }[] = [];
    const picker: Prompter = {
      pick: async (_title, items, placeholder) => {
        asked.push({ placeholder: placeholder ?? "", labels: items.map((item) => item.label) });
        return placeholder === "Choose the account" ? items.find((item) => item.label === "sol-treasury")?.value : items[0]?.value;
      },
      input: async () => undefined,
      confirm: async () => false,
      choose: async () => undefined,
    };
    const stakesOfTreasury = await harness.client.listSolanaStakes(
      (await harness.client.listAllAccounts({ pageSize: 1000, maxPages: 1000 })).find((account) => account.name === "sol-treasury")!.id,
    );
    expect(stakesOfTreasury.length).toBeGreaterThan(0);
    const choice = await chooseStake(harness.client, picker, undefined, { title: "Stake" });
    expect(asked.map((step) => step.placeholder)).toEqual(["Choose the account", "Choose the stake"]);
    expect(asked[0]?.labels.length).toBeGreaterThan(ONE_STEP_ACCOUNTS);
    expect(asked[1]?.labels).toHaveLength(stakesOfTreasury.length);
    expect(choice?.account.name).toBe("sol-treasury");
    expect(stakesOfTreasury.map((stake) => stake.uid)).toContain(choice?.stake.uid);
  }, 60_000);
});
