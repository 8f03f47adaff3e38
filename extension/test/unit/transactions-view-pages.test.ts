import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { CustodyClient } from "@custody/shared";
import type { LoadMoreNode } from "../../src/views/nodes/load-more-node.js";
import { startHarness, treeLines, type Harness } from "./support/extension-harness.js";

// The pending list used to be read whole, at most 10 pages of 100: beyond 1,000 pending the view
// showed "Could not load transactions". It is now read a page of 100 at a time, so a little over
// one page is enough to check the paging.
const ADDED = 105;

describe("the Transactions view with more transactions pending than one page", () => {
  let harness: Harness;
  let pendingTotal: number;
  beforeAll(async () => {
    harness = await startHarness();
    const treasury = new CustodyClient({ baseUrl: harness.baseUrl, operator: "treasury-bot" });
    const cold = (await treasury.listAllAccounts()).find((account) => account.name === "sol-cold");
    if (!cold) throw new Error("the demo workspace has no sol-cold");
    for (let index = 0; index < ADDED; index += 1) {
      const created = await treasury.createTransaction({
        account_name: "sol-cold",
        amount: "1000",
        max_fees: "7500",
        recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
        speed: "NORMAL",
        note: { title: "pending", content: `pending ${index}` },
      });
      expect(created.status).toBe("PENDING_APPROVAL");
    }
    pendingTotal = (await harness.client.searchTransactions({ status: "PENDING_APPROVAL", page: 1, page_size: 1 })).page_info.count;
    expect(pendingTotal).toBeGreaterThan(100);
    harness.provider("transactions").refresh();
  }, 60_000);
  afterAll(async () => {
    await harness.close();
  });

  it("shows the first 100 pending, newest first, then Load more pending, then the recent ones", async () => {
    let lines = await treeLines(harness.provider("transactions"), 1);
    const statuses = lines.map((line) => line.description.split(" · ")[1]);
    expect(statuses.slice(0, 100).every((status) => status === "PENDING_APPROVAL")).toBe(true);
    const more = lines[100];
    expect(more?.label).toBe("Load more pending transactions...");
    expect(more?.description).toBe(`100 of ${pendingTotal} pending shown`);
    await (more?.node as LoadMoreNode).load();
    lines = await treeLines(harness.provider("transactions"), 1);
    const pending = lines.filter((line) => line.description.split(" · ")[1] === "PENDING_APPROVAL");
    expect(pending).toHaveLength(pendingTotal);
    expect(lines.slice(0, pendingTotal).every((line) => line.description.split(" · ")[1] === "PENDING_APPROVAL")).toBe(true);
    expect(lines.some((line) => line.label === "Load more pending transactions...")).toBe(false);
    expect(lines.some((line) => line.contextValue === "error")).toBe(false);
  });
});
