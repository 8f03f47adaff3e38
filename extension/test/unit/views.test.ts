import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { CustodyClient, formatUnits, formatUnitsRounded, type Transaction } from "@custody/shared";
import type { LoadMoreNode } from "../../src/views/nodes/load-more-node.js";
import { fake, MarkdownString } from "./support/fake-vscode.js";
import { startHarness, treeLines, waitFor, type Harness } from "./support/extension-harness.js";

describe("tree views against the demo workspace", () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("groups accounts by network and shows each balance in display units", async () => {
    const accounts = await harness.client.listAllAccounts();
    const lines = await treeLines(harness.provider("accounts"), 2);
    const groups = lines.filter((line) => line.depth === 0);
    expect(groups.map((line) => line.label)).toEqual(["Solana", "Polkadot", "Ethereum"]);
    for (const account of accounts) {
      const line = lines.find((candidate) => candidate.depth === 1 && candidate.label === account.name);
      expect(line, account.name).toBeDefined();
      const currency = await harness.client.getCurrency(account.currency);
      expect(line?.description).toBe(`${formatUnits(account.balance, currency)} ${currency.units[1]?.code}`);
      expect(line?.contextValue).toBe(`account.${account.type.toLowerCase()}`);
    }
    const solTreasury = lines.find((line) => line.label === "sol-treasury");
    expect(solTreasury?.description).toBe("167.499975 SOL");
  });

  it("breaks a Polkadot account down into available, bonded, unbonding with waiting times, unbonded and rewards destination", async () => {
    const accounts = await harness.client.listAllAccounts();
    const dot = accounts.find((account) => account.name === "dot-staking");
    if (!dot || dot.coin_fields.type !== "Polkadot") throw new Error("the demo workspace has no dot-staking account");
    const balances = (dot.coin_fields as { balances: { available: bigint; bonded: bigint; unbonding: { amount: bigint; waiting_time: number }[] } }).balances;
    const lines = await treeLines(harness.provider("accounts"), 5);
    const start = lines.findIndex((line) => line.label === "dot-staking");
    const below = lines.slice(start + 1, start + 30);
    const breakdown = below.find((line) => line.label === "Staking balances");
    expect(breakdown).toBeDefined();
    const labels = below.filter((line) => line.depth === 3).map((line) => line.label);
    expect(labels).toEqual(expect.arrayContaining(["Available", "Bonded", "Unbonding", "Unbonded", "Rewards destination"]));
    const currency = await harness.client.getCurrency(dot.currency);
    expect(below.find((line) => line.label === "Bonded")?.description).toBe(`${formatUnits(balances.bonded, currency)} DOT`);
    expect(below.find((line) => line.label === "Available")?.description).toBe(`${formatUnits(balances.available, currency)} DOT`);
    expect(balances.unbonding.length).toBeGreaterThan(0);
    const chunk = below.find((line) => line.depth === 4 && line.description.startsWith("unbonded in "));
    expect(chunk?.description).toMatch(/^unbonded in \d+ (d|h|min|s)/);
  });

  it("labels each Solana stake with its total and state, when withdrawable, and menus matching their allowed actions", async () => {
    const sol = {
      units: [
        { code: "lamport", magnitude: 0 },
        { code: "SOL", magnitude: 9 },
      ],
    };
    // A new stake of 1.5 SOL (activating until the next epoch) and a stake being deactivated.
    const created = await harness.client.createSolanaStake(1, { amount: 1_500_000_000n, validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" });
    const activated = (await harness.client.listSolanaStakes(1)).find((stake) => stake.blockchain_state.status === "activated");
    if (!activated) throw new Error("the demo workspace has no activated stake");
    await harness.client.deactivateSolanaStake(1, activated.uid);
    await waitFor(async () => (await harness.client.getTransaction(created.id)).status === "SUBMITTED", "the new stake broadcast");
    await waitFor(async () => (await harness.client.getSolanaStake(1, activated.uid)).blockchain_state.status === "deactivating", "the deactivation broadcast");
    const stakes = await harness.client.listSolanaStakes(1);
    harness.provider("stakes").refresh();
    const lines = await treeLines(harness.provider("stakes"), 2);
    expect(lines.filter((line) => line.depth === 0).map((line) => line.label)).toEqual(["Solana stakes", "Ethereum positions"]);
    const stakeLines = lines.filter((line) => line.contextValue.startsWith("solanaStake:"));
    expect(stakeLines).toHaveLength(stakes.length);
    const labels = stakeLines.map((line) => line.label);
    expect(labels).toContain("1.5 SOL activating");
    const deactivated = stakes.find((stake) => stake.blockchain_state.status === "deactivated");
    expect(labels).toContain(`${formatUnitsRounded(deactivated?.blockchain_state.total_balance ?? 0n, sol, 2)} SOL deactivated, withdrawable`);
    expect(labels).toContain("20.03 SOL deactivated, withdrawable");
    const deactivating = stakeLines.find((line) => line.label.includes(" deactivating"));
    expect(deactivating?.label).toMatch(/^[0-9.]+ SOL deactivating, withdrawable from about \d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
    // The exact total beside the rounded one; the validator; the menus the actions allow.
    const withdrawable = stakeLines.find((line) => line.label.endsWith("deactivated, withdrawable"));
    expect(withdrawable?.description).toContain(`${formatUnits(deactivated?.blockchain_state.total_balance ?? 0n, sol)} SOL (active 0 SOL)`);
    expect(withdrawable?.contextValue).toBe("solanaStake:withdraw:");
    const other = stakes.find((stake) => stake.blockchain_state.status === "activated");
    const otherLine = stakeLines.find((line) => line.label.endsWith(" activated"));
    expect(otherLine?.description).toContain(`validator ${other?.blockchain_state.validator_address.slice(0, 6)}`);
    expect(otherLine?.contextValue).toBe("solanaStake:deactivate:split:split_deactivate:");
  });

  it("puts on the Transactions view a badge with the number waiting for approval, cleared when disconnected", async () => {
    await treeLines(harness.provider("transactions"), 1);
    const waiting = (await harness.client.searchTransactions({ status: "PENDING_APPROVAL", page: 1, page_size: 1 })).page_info.count;
    expect(waiting).toBeGreaterThan(0);
    expect(fake.treeViews.get("custody.transactions")?.badge).toEqual({ value: waiting, tooltip: `${waiting} transactions wait for approval` });
    expect(fake.treeViews.get("custody.stakes")?.badge).toBeUndefined();
    await harness.run("custody.disconnect");
    await harness.provider("transactions").getChildren();
    expect(fake.treeViews.get("custody.transactions")?.badge).toBeUndefined();
  });

  it("lists transactions pending approval first, each opening on its change history", async () => {
    const lines = await treeLines(harness.provider("transactions"), 1);
    const statuses = lines.map((line) => line.description.split(" · ")[1]);
    const firstOther = statuses.findIndex((status) => status !== "PENDING_APPROVAL");
    expect(firstOther).toBeGreaterThan(0);
    expect(statuses.slice(firstOther)).not.toContain("PENDING_APPROVAL");
    const pending = lines[0];
    expect(pending?.contextValue).toBe("transaction.pending");
    const history = await harness.provider("transactions").getChildren(pending?.node);
    const historyItems = history.map((node) => node.treeItem());
    expect(historyItems.length).toBeGreaterThan(0);
    expect(historyItems.every((item) => item.contextValue === "historyEntry")).toBe(true);
    expect(historyItems[0]?.label).toBe("PENDING_APPROVAL");
    expect(String(historyItems[0]?.description)).toContain("CREATE_TRANSACTION");
  });

  it("shows a Markdown tooltip whose workspace text is escaped, not rendered", async () => {
    const lines = await treeLines(harness.provider("transactions"), 1);
    const tooltip = lines[0]?.node.treeItem().tooltip;
    expect(tooltip).toBeInstanceOf(MarkdownString);
    expect((tooltip as unknown as MarkdownString).isTrusted).toBe(false);
    expect((tooltip as unknown as MarkdownString).value).toContain("amount: ");
  });

  it("ends a long list with a Load more node that reads the next page", async () => {
    const sends: Transaction[] = [];
    const treasury = new CustodyClient({ baseUrl: harness.baseUrl, operator: "treasury-bot" });
    for (let index = 0; index < 6; index += 1) {
      sends.push(
        await treasury.createTransaction({
          account_name: "sol-treasury",
          amount: { value: "1000", unit: "lamport" },
          max_fees: { value: "5000", unit: "lamport" },
          recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
          speed: "NORMAL",
          coin_fields: { type: "SEND" },
        }),
      );
    }
    const total = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count;
    expect(total).toBeGreaterThan(20);
    harness.provider("transactions").refresh();
    let lines = await treeLines(harness.provider("transactions"), 1);
    const more = lines.at(-1);
    expect(more?.label).toBe("Load older transactions...");
    const shownBefore = lines.length - 1;
    await (more?.node as LoadMoreNode).load();
    lines = await treeLines(harness.provider("transactions"), 1);
    expect(lines.length - 1).toBeGreaterThan(shownBefore);
    expect(lines.some((line) => line.label.startsWith(`#${sends[0]?.id} `))).toBe(true);
    expect(lines.at(-1)?.label).not.toBe("Load older transactions...");
  });

  it("shows an error node, never an empty tree, when the workspace cannot be read", async () => {
    await harness.stopEmulator();
    harness.provider("accounts").refresh();
    const lines = await treeLines(harness.provider("accounts"), 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.label).toBe("Could not load accounts");
    expect(lines[0]?.contextValue).toBe("error");
    expect(lines[0]?.description).toMatch(/network error|ECONNREFUSED/);
    expect(fake.output.some((line) => line.includes("Loading accounts"))).toBe(true);
  });

  it("shows nothing while not connected, so the welcome view appears", async () => {
    await harness.run("custody.disconnect");
    expect(fake.contexts.get("custody.connected")).toBe(false);
    for (const view of ["accounts", "stakes", "transactions"] as const) expect(await harness.provider(view).getChildren()).toEqual([]);
  });
});
