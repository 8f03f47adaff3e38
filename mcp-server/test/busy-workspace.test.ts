import type { CustodyClient } from "@custody/shared";
import { expect, it } from "vitest";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient } from "./harness/demo-workspace.js";
import { call, demoHarness } from "./harness/mcp-harness.js";

// Reads of a busy workspace: list_activity's "is anything stuck" reads the oldest transactions
// waiting for approval (the list is newest first: with more than a page waiting, the newest page
// holds none waiting over a day), and a window read in part (list_activity, a search by time) does
// not count only what it read as all there is; the list of those waiting says first when it shows
// only the newest.

const demo = demoHarness();
const PAGE = 100;

/** Sends from the cold account, each waiting for a person's approval. */
async function sends(direct: CustodyClient, count: number): Promise<void> {
  const recipient = (await accountNamed(demo.emulator, DEMO.solTreasury)).address;
  for (let index = 0; index < count; index += 1) {
    const created = await direct.createTransaction({
      account_name: DEMO.solCold,
      amount: { value: "1000", unit: "lamport" },
      max_fees: { value: "7500", unit: "lamport" },
      recipient,
      speed: "NORMAL",
      coin_fields: { type: "SEND" },
    });
    expect(created.status).toBe("PENDING_APPROVAL");
  }
}

/** The ids of every transaction waiting for approval (`count` of them). */
async function waitingIds(direct: CustodyClient, count: number): Promise<number[]> {
  const pages = await Promise.all(
    Array.from({ length: Math.ceil(count / PAGE) }, (_, index) => direct.searchTransactions({ status: "PENDING_APPROVAL", page: index + 1, page_size: PAGE })),
  );
  return pages.flatMap((page) => page.edges.map((edge) => edge.node.id));
}

it("finds the approvals waiting over a day when more than a page of newer ones wait too", async () => {
  const direct = directClient(demo.emulator);
  const waitingBefore = (await direct.searchTransactions({ status: "PENDING_APPROVAL", page: 1, page_size: PAGE })).edges.map((edge) => edge.node.id);
  expect(waitingBefore.length).toBeGreaterThan(0);
  await control(demo.emulator, "POST", "/clock/advance", { seconds: 25 * 3600 });
  // A page and more of sends that wait for a person, created now.
  await sends(direct, PAGE + 5);

  const answer = await call(demo.harness.client, "list_activity", {});
  expect(answer.isError, answer.text).toBe(false);
  const stuck = answer.structured.stuck as { transaction_id: number }[];
  expect(stuck.map((item) => item.transaction_id).sort((a, b) => a - b)).toEqual([...waitingBefore].sort((a, b) => a - b));
  expect(answer.text).toContain(`Waiting for approval over a day (${waitingBefore.length}):`);
  expect(answer.structured.partial as string[]).not.toContainEqual(expect.stringMatching(/^stuck:/));

  // The list of those waiting says first that it is not all of them.
  const pending = await call(demo.harness.client, "list_pending_approvals", {});
  expect(pending.isError, pending.text).toBe(false);
  const waiting = waitingBefore.length + PAGE + 5;
  expect(pending.text.split("\n")[0]).toBe(`${waiting} transactions wait for approval (the newest ${PAGE} shown; name an account to narrow):`);
  expect(pending.structured).toMatchObject({ count: waiting, pending: expect.any(Array) });
  expect((pending.structured.pending as unknown[]).length).toBe(PAGE);

  // A day later every one of them waits over a day: the oldest hundred are read, and the answer says more may wait so.
  await control(demo.emulator, "POST", "/clock/advance", { seconds: 25 * 3600 });
  const oldest = (await waitingIds(direct, waiting)).sort((a, b) => a - b).slice(0, PAGE);
  const allStuck = async () => {
    // The server's client knows the service's time from its latest answer: one after the clock moved.
    expect((await call(demo.harness.client, "get_account", { account: DEMO.solCold })).isError).toBe(false);
    const read = await call(demo.harness.client, "list_activity", {});
    expect(read.isError, read.text).toBe(false);
    expect((read.structured.stuck as { transaction_id: number }[]).map((item) => item.transaction_id).sort((a, b) => a - b)).toEqual(oldest);
    expect(read.text).toContain(`Waiting for approval over a day (at least ${PAGE}):`);
    return read.structured.partial as string[];
  };
  expect(await allStuck()).toContainEqual(`stuck: the oldest ${PAGE} of ${waiting} waiting all wait over a day; name an account to narrow`);

  // Past two pages waiting, the last two pages are read without the first.
  await sends(direct, PAGE);
  expect(await allStuck()).toContainEqual(`stuck: the oldest ${PAGE} of ${waiting + PAGE} waiting all wait over a day; name an account to narrow`);
}, 90_000);

it("says at least how many moved, or were found, when the window holds more than it reads", async () => {
  // 20,000 sends over the last thirty days: about 670 a day, more than the 500 list_activity reads.
  await control(demo.emulator, "POST", "/seed/scale", { accounts: 30, transactions: 20_000, prefix: "busy-" });
  const answer = await call(demo.harness.client, "list_activity", {});
  expect(answer.isError, answer.text).toBe(false);
  expect(answer.structured.partial as string[]).toContainEqual(expect.stringMatching(/^transactions: the newest 500 read, back to /));
  expect(answer.text).toMatch(/^From \S+ to \S+: at least 500 transactions moved \(created, broadcast or expired\)\.\n/);

  // A week of them: about 4,700, more than the 1,000 a search by time reads.
  const since = new Date(Date.parse(answer.text.slice("From ".length, answer.text.indexOf(" to "))) - 6 * 86_400_000).toISOString();
  const found = await call(demo.harness.client, "search_transactions", { since });
  expect(found.isError, found.text).toBe(false);
  expect(found.structured.page_info).toMatchObject({ count: 1000, partial: expect.stringMatching(/^partial: the newest 1000 transactions were read/) });
  expect(found.text).toMatch(/^50 of at least 1000 transactions:\n/);

  // A window older than the 1,000 read reach: not an empty window, one the read did not reach.
  const monthAgo = Date.parse(since) - 20 * 86_400_000;
  const unreached = await call(demo.harness.client, "search_transactions", {
    since: new Date(monthAgo).toISOString(),
    until: new Date(monthAgo + 86_400_000).toISOString(),
  });
  expect(unreached.isError, unreached.text).toBe(false);
  expect(unreached.structured.page_info).toMatchObject({ count: 0, partial: expect.stringMatching(/^partial: the newest 1000 transactions were read/) });
  expect(unreached.text).toMatch(/^None found in the transactions read:\n\(partial: /);
}, 30_000);
