import { CustodyClient, HISTORY_FIRST_PAGE, HISTORY_KNOWN_FIRST_PAGE, HISTORY_MAX_READ, historyPages, identicalInWorkspace } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, transactionsWithLabel } from "./harness/demo-workspace.js";
import { useDemoSessions } from "./harness/demo-sessions.js";
import { blockingCodes, dryRunAndConfirm, passedCodes } from "./harness/guarded-write.js";
import { call, connectHarness, type Harness, type HarnessOptions } from "./harness/mcp-harness.js";
import { startHoldingProxy } from "./harness/holding-proxy.js";

// Never twice against the workspace: two servers of one operator with two audit logs (two processes,
// the extension and an assistant, two machines) on one emulator, through real MCP clients.

const demo = useDemoSessions();
const open: Harness[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((harness) => harness.close()));
});

/** Another treasury-bot server, with an audit log of its own. */
async function server(options: HarnessOptions = {}): Promise<Harness> {
  const harness = await connectHarness(demo.emulator, options);
  open.push(harness);
  return harness;
}

let recipient = "";
const send = (extra: Record<string, unknown> = {}) => ({ account: DEMO.solTreasury, recipient, amount: "1.5", unit: "SOL", ...extra });
beforeEach(async () => {
  recipient = (await accountNamed(demo.emulator, DEMO.solCold)).address;
});

type Check = { code: string; severity: string; message: string; facts: Record<string, string> };
const checksOf = (structured: Record<string, unknown>) => (structured.checks ?? []) as Check[];

describe("an identical write of this operator made through another store", () => {
  it("blocks the dry run naming its transaction; repeat_of with that id passes, and the first store then names the newer one", async () => {
    const first = demo.treasury;
    const second = await server();
    expect(second.auditPath).not.toBe(first.auditPath);
    const { confirmed } = await dryRunAndConfirm(first.client, "create_transaction", send());
    const earlier = (confirmed.structured.transaction as { id: number }).id;

    const again = await call(second.client, "create_transaction", send());
    expect(again.structured.status).toBe("blocked");
    expect(blockingCodes(again.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(again.text).toContain(`as transaction ${earlier} (status`);
    expect(again.text).toContain("found in the workspace's transactions");
    expect(again.text).toContain(`repeat_of "${earlier}"`);
    expect(checksOf(again.structured).find((check) => check.code === "DUPLICATE_OF_RECENT")?.facts).toMatchObject({
      earlier_transaction_id: earlier,
      repeat_of: String(earlier),
    });

    const { dry, confirmed: repeated } = await dryRunAndConfirm(second.client, "create_transaction", send({ repeat_of: String(earlier) }));
    expect(passedCodes(dry)).toContain("REPEAT_ACKNOWLEDGED");
    expect(repeated.structured.status).toBe("submitted");
    const newer = (repeated.structured.transaction as { id: number }).id;

    // The first store knows only its own write: the workspace names the newer one, which its acknowledgement must name.
    const fromFirst = await call(first.client, "create_transaction", send());
    expect(blockingCodes(fromFirst.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(fromFirst.text).toContain(`repeat_of "${newer}"`);
    const stale = await call(first.client, "create_transaction", send({ repeat_of: String(earlier) }));
    expect(blockingCodes(stale.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    const { confirmed: third } = await dryRunAndConfirm(first.client, "create_transaction", send({ repeat_of: String(newer) }));
    expect(third.structured.status).toBe("submitted");
  });

  it("is caught by the re-check after the person's answer when it was created while they read the form", async () => {
    const first = demo.treasury;
    let landed: number | undefined;
    const second = await server({
      elicit: async () => {
        // While the person looks at the form, the same operator's other server sends the identical write.
        const { confirmed } = await dryRunAndConfirm(first.client, "create_transaction", send());
        landed = (confirmed.structured.transaction as { id: number }).id;
        return { action: "accept", content: { confirm: true } };
      },
    });
    const dry = await call(second.client, "create_transaction", send());
    expect(dry.structured.status).toBe("dry_run");
    const confirmed = await call(second.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(confirmed.structured.status).toBe("blocked");
    // The question was answered before the intent was used: the re-check after the answer sees the write that landed meanwhile.
    expect(confirmed.text).toContain("BLOCKED (re-check on fresh data)");
    expect(blockingCodes(confirmed.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(confirmed.text).toContain(`as transaction ${landed}`);
    expect(await transactionsWithLabel(demo.emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("compares what each kind moves: a stake by amount and validator, a rewards destination by its payee", async () => {
    const validator = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
    const stake = { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator };
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_create_stake", stake);
    const created = (confirmed.structured.transaction as { id: number }).id;
    const otherStaking = await server({ operator: DEMO.stakingBot });
    const again = await call(otherStaking.client, "solana_create_stake", stake);
    expect(blockingCodes(again.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(again.text).toContain(`as transaction ${created}`);
    expect((await call(otherStaking.client, "solana_create_stake", { ...stake, amount: "3" })).structured.status).toBe("dry_run");

    // Once broadcast, the same payee also blocks as no change; the duplicate is named either way.
    await dryRunAndConfirm(demo.treasury.client, "polkadot_set_payee", { account: DEMO.dotStaking, payee: "Stash" });
    const second = await server();
    expect(blockingCodes((await call(second.client, "polkadot_set_payee", { account: DEMO.dotStaking, payee: "Controller" })).structured)).not.toContain(
      "DUPLICATE_OF_RECENT",
    );
    expect(blockingCodes((await call(second.client, "polkadot_set_payee", { account: DEMO.dotStaking, payee: "Stash" })).structured)).toContain(
      "DUPLICATE_OF_RECENT",
    );
  });

  it("names a stake whose answer was lost by the transaction the workspace shows, not as an unknown to be sent again", async () => {
    const validator = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
    const stake = { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator };
    const staking = await server({ operator: DEMO.stakingBot, lookupFirstDelayMs: 600_000, lookupHorizonMs: 1_200_000 });
    const dry = await call(staking.client, "solana_create_stake", stake);
    // The stake is created, then its answer and every look-up after it are dropped.
    await control(demo.emulator, "PUT", "/faults", { drop_after_rate: 1, from_first: "POST" });
    const lost = await call(staking.client, "solana_create_stake", { ...stake, confirmation_token: dry.token });
    await control(demo.emulator, "DELETE", "/faults");
    expect(lost.structured.status).toBe("uncertain");
    const created = (await directClient(demo.emulator).searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
    expect(created?.type).toBe("STAKE_CREATE_DELEGATE");
    const again = await call(staking.client, "solana_create_stake", stake);
    expect(blockingCodes(again.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(again.text).toContain(`as transaction ${created?.id}`);
    expect(checksOf(again.structured).find((check) => check.code === "DUPLICATE_OF_RECENT")?.facts.earlier_transaction_id).toBe(created?.id);
  });

  it("does not count a transaction that moved nothing (rejected)", async () => {
    const first = demo.treasury;
    const second = await server();
    const cold = { account: DEMO.solCold, recipient: (await accountNamed(demo.emulator, DEMO.solTreasury)).address, amount: "0.25", unit: "SOL" };
    const { confirmed } = await dryRunAndConfirm(first.client, "create_transaction", cold);
    const pending = confirmed.structured.transaction as { id: number; status: string };
    expect(pending.status).toBe("PENDING_APPROVAL");
    expect(blockingCodes((await call(second.client, "create_transaction", cold)).structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    await control(demo.emulator, "POST", `/transactions/${pending.id}/reject`, { username: "dana.approver" });
    const after = await call(second.client, "create_transaction", cold);
    expect(after.structured.status).toBe("dry_run");
  });
});

describe("an identical write made by another operator or a person", () => {
  it("warns SIMILAR_RECENT naming it, who made it, when and its status, without blocking", async () => {
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "create_transaction", send());
    const made = confirmed.structured.transaction as { id: number };
    const mine = demo.treasury;
    const dry = await call(mine.client, "create_transaction", send());
    expect(dry.structured.status).toBe("dry_run");
    const similar = checksOf(dry.structured).find((check) => check.code === "SIMILAR_RECENT");
    expect(similar).toMatchObject({ severity: "warn", facts: { transaction_id: made.id, created_by: DEMO.stakingBot, count: "1" } });
    expect(similar?.facts.status).toMatch(/^[A-Z_]+$/);
    expect(similar?.facts.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(dry.text).toContain(`transaction ${made.id} created by ${DEMO.stakingBot} at`);
    const sent = await call(mine.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(sent.structured.status).toBe("submitted");
  });

  it("stops a confirmation when such a write was made after the dry run the person saw, until a new dry run names it", async () => {
    const mine = demo.treasury;
    const dry = await call(mine.client, "create_transaction", send());
    expect(dry.structured.status).toBe("dry_run");
    expect(checksOf(dry.structured).map((check) => check.code)).not.toContain("SIMILAR_RECENT");
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "create_transaction", send());
    const made = (confirmed.structured.transaction as { id: number }).id;
    const late = await call(mine.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(late.structured.status).toBe("blocked");
    expect(blockingCodes(late.structured)).toEqual(["SIMILAR_SINCE_DRY_RUN"]);
    expect(late.text).toContain(`since the dry run (transaction ${made})`);
    expect(await transactionsWithLabel(demo.emulator, dry.structured.reference as string)).toEqual([]);
    const seen = await call(mine.client, "create_transaction", send());
    expect(checksOf(seen.structured).find((check) => check.code === "SIMILAR_RECENT")?.facts.transaction_id).toBe(made);
    const sent = await call(mine.client, "create_transaction", send({ confirmation_token: seen.token }));
    expect(sent.structured.status).toBe("submitted");
  });
});

describe("the read of the account's history", () => {
  it("stops at the window's start: a day-old identical write is not a duplicate, and the older history is not read", async () => {
    const client = directClient(demo.emulator);
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    for (let index = 0; index < 120; index += 1) {
      await client.createTransaction({
        account_name: DEMO.solTreasury,
        amount: String(10_000 + index),
        max_fees: "7500",
        recipient,
        speed: "NORMAL",
        note: { title: "old", content: `old ${index}` },
      });
    }
    await dryRunAndConfirm(demo.treasury.client, "create_transaction", send());
    await control(demo.emulator, "POST", "/clock/advance", { ms: 25 * 60 * 60 * 1000 });
    const second = await server();
    expect((await call(second.client, "create_transaction", send())).structured.status).toBe("dry_run");

    await client.createTransaction({ account_name: DEMO.solTreasury, amount: "20000", max_fees: "7500", recipient, speed: "NORMAL" });
    const everything = { account: treasury, operator: DEMO.treasuryBot, lostAnswer: { by: "reference" as const, expected: {} } };
    const window = () => identicalInWorkspace(client, everything, new Date(client.serviceNow().getTime() - 24 * 60 * 60 * 1000));
    const quiet = await window();
    expect(quiet.identical.map((match) => match.transaction.amount)).toEqual([20_000n]);
    // The first page holds the window's one transaction and older ones: the read stops there.
    expect(quiet.read).toBe(HISTORY_FIRST_PAGE);
    expect(quiet.complete).toBe(true);

    // 35 more in the window, read by a process that read it before: the first page of 5 alone, then two at once, each starting at
    // the last row of the one before (rows 4 to 7 and 7 to 13), then rows 13 to 25 and 25 to 49, which hold the newest read before.
    for (let index = 1; index < 35; index += 1) {
      await client.createTransaction({ account_name: DEMO.solTreasury, amount: String(20_000 + index), max_fees: "7500", recipient, speed: "NORMAL" });
    }
    const busier = await window();
    expect(busier.identical.map((match) => match.transaction.amount)).toEqual(Array.from({ length: 35 }, (_, index) => BigInt(20_034 - index)));
    expect(busier.read).toBe(5 + 4 + 7 + 13 + 25);
    expect(busier.complete).toBe(true);
    // Read again in the same process: only what is new, here one short page that reaches the newest read before.
    const again = await window();
    expect(again.identical).toHaveLength(35);
    expect(again.read).toBe(HISTORY_KNOWN_FIRST_PAGE);
  });

  it("reads at most its cap of a busy window, says so in the dry run, and then reads only what is new", async () => {
    const client = directClient(demo.emulator);
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    for (let index = 0; index < HISTORY_MAX_READ + 10; index += 1) {
      await client.createTransaction({ account_name: DEMO.solTreasury, amount: String(30_000 + index), max_fees: "7500", recipient, speed: "NORMAL" });
    }
    const dry = await call(demo.treasury.client, "create_transaction", send());
    expect(dry.structured.status).toBe("dry_run");
    expect(checksOf(dry.structured).find((check) => check.code === "WORKSPACE_HISTORY_PARTIAL")?.facts.compared).toBe(String(HISTORY_MAX_READ));

    const everything = { account: treasury, operator: DEMO.treasuryBot, lostAnswer: { by: "reference" as const, expected: {} } };
    const window = () => identicalInWorkspace(client, everything, new Date(client.serviceNow().getTime() - 24 * 60 * 60 * 1000));
    const first = await window();
    // Each page after the first reads the last row of the one before again.
    const cappedRead = historyPages(HISTORY_FIRST_PAGE, HISTORY_MAX_READ).reduce((sum, page) => sum + page.size, 0);
    expect([first.read, first.compared, first.complete]).toEqual([cappedRead, HISTORY_MAX_READ, false]);
    await client.createTransaction({ account_name: DEMO.solTreasury, amount: "40000", max_fees: "7500", recipient, speed: "NORMAL" });
    const next = await window();
    // Still at most the cap, the newest: the oldest read before is let go.
    expect([next.read, next.compared, next.complete]).toEqual([HISTORY_KNOWN_FIRST_PAGE, HISTORY_MAX_READ, false]);
    expect(next.identical[0]?.transaction.amount).toBe(40_000n);
  });

  /** Sends of the treasury, as the test's own client makes them. */
  const treasurySend = (amount: number) =>
    directClient(demo.emulator).createTransaction({ account_name: DEMO.solTreasury, amount: String(amount), max_fees: "7500", recipient, speed: "NORMAL" });

  /**
   * The read of the treasury's window since `windowMs` ago, through a proxy, with `expected`: the first page holds rows 0 to 9;
   * then rows 9 to 17 and 17 to 33 are asked at once, the later one is answered first, then two transactions are created, then
   * the earlier one is answered.
   */
  async function readWithLaterPageFirst(expected: { operations?: string[]; amount?: string }, windowMs: number) {
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    const proxy = await startHoldingProxy(demo.emulator);
    try {
      const query = `/transactions?account_id=${treasury.id}&page=2&page_size=`;
      proxy.hold("GET", `${query}9`, { kind: "until_released" });
      const laterAnswered = proxy.answered("GET", `${query}17`);
      const proxied = new CustodyClient({ baseUrl: proxy.baseUrl, operator: DEMO.treasuryBot });
      const plan = { account: treasury, operator: DEMO.treasuryBot, lostAnswer: { by: "reference" as const, expected } };
      const reading = identicalInWorkspace(proxied, plan, new Date(directClient(demo.emulator).serviceNow().getTime() - windowMs));
      await Promise.all([proxy.held(), laterAnswered]);
      await treasurySend(62_000);
      await treasurySend(62_001);
      proxy.release();
      return await reading;
    } finally {
      await proxy.close();
    }
  }

  it("skips no transaction when a page asked beside an earlier one is answered first and transactions are created between", async () => {
    for (let index = 0; index < 20; index += 1) await treasurySend(60_000 + index);
    const target = await treasurySend(77_777);
    for (let index = 0; index < 16; index += 1) await treasurySend(61_000 + index);
    // The target is row 16. The earlier page answered last holds rows 7 to 15 of the list it read: the target has moved to row
    // 18, out of both answers.
    const history = await readWithLaterPageFirst({ operations: ["SEND"], amount: "77777" }, 24 * 60 * 60 * 1000);
    expect(history.identical.map((match) => match.transaction.id)).toEqual([target.id]);
  });

  it("does not take an empty last page answered before the page beside it for the list's end when transactions were created between", async () => {
    const client = directClient(demo.emulator);
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    const count = async () => (await client.searchTransactions({ account_id: treasury.id, page: 1, page_size: 1 })).page_info.count;
    // A window of a year (the demo's own transactions are days old), 17 rows: the oldest, row 16, is the demo's first.
    while ((await count()) < 17) await treasurySend(67_000);
    expect(await count()).toBe(17);
    // The later page is answered with no rows and none after; the earlier one holds rows 7 to 15 of the list it read and says
    // more follow. The empty page ends no list the earlier one says goes on: row 16 is read too.
    const history = await readWithLaterPageFirst({}, 365 * 24 * 60 * 60 * 1000);
    expect([history.compared, history.complete]).toEqual([17, true]);
  });

  it("asks one page at a time when the rows read so far, spread over the day, suggest the window ends within the next page", async () => {
    const client = directClient(demo.emulator);
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    for (let index = 0; index < 20; index += 1) {
      await client.createTransaction({ account_name: DEMO.solTreasury, amount: String(65_000 + index), max_fees: "7500", recipient, speed: "NORMAL" });
    }
    await control(demo.emulator, "POST", "/clock/advance", { ms: 25 * 60 * 60 * 1000 });
    // 12 in the window, one every 2 hours: the first page of 10 covers 18 hours, so about 13 are expected, within rows 9 to 17.
    for (let index = 0; index < 12; index += 1) {
      if (index > 0) await control(demo.emulator, "POST", "/clock/advance", { ms: 2 * 60 * 60 * 1000 });
      await client.createTransaction({ account_name: DEMO.solTreasury, amount: String(64_000 + index), max_fees: "7500", recipient, speed: "NORMAL" });
    }
    const everything = { account: treasury, operator: DEMO.treasuryBot, lostAnswer: { by: "reference" as const, expected: {} } };
    const proxy = await startHoldingProxy(demo.emulator);
    try {
      const proxied = new CustodyClient({ baseUrl: proxy.baseUrl, operator: DEMO.treasuryBot });
      const since = new Date((await client.readServiceNow()).getTime() - 24 * 60 * 60 * 1000);
      const history = await identicalInWorkspace(proxied, everything, since);
      expect([history.compared, history.complete]).toEqual([12, true]);
      // The first page, then rows 9 to 17 alone (not rows 17 to 33 beside them).
      const query = `/transactions?account_id=${treasury.id}`;
      expect(proxy.asked().filter((path) => path.startsWith(query))).toEqual([`${query}&page=1&page_size=10`, `${query}&page=2&page_size=9`]);
    } finally {
      await proxy.close();
    }
  });

  it("says it is partial when a page does not join the rows read before, even asked again, rather than taking a short page for the end", async () => {
    const client = directClient(demo.emulator);
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    for (let index = 0; index < 20; index += 1) {
      await client.createTransaction({ account_name: DEMO.solTreasury, amount: String(63_000 + index), max_fees: "7500", recipient, speed: "NORMAL" });
    }
    // A service that answers the page after the first with no rows while it says more follow (twice: the page and its second asking).
    const proxy = await startHoldingProxy(demo.emulator);
    try {
      const empty = JSON.stringify({ edges: [], page_info: { count: 30, has_next_page: true } });
      proxy.hold("GET", `/transactions?account_id=${treasury.id}&page=2&page_size=9`, { kind: "answer", status: 200, text: empty }, 2);
      const proxied = new CustodyClient({ baseUrl: proxy.baseUrl, operator: DEMO.treasuryBot });
      const everything = { account: treasury, operator: DEMO.treasuryBot, lostAnswer: { by: "reference" as const, expected: {} } };
      const since = () => new Date(client.serviceNow().getTime() - 24 * 60 * 60 * 1000);
      const history = await identicalInWorkspace(proxied, everything, since());
      expect([history.compared, history.complete]).toEqual([HISTORY_FIRST_PAGE, false]);
      // The same from the first page, for a process that has read nothing yet: none of the window is read, and that is said.
      proxy.hold("GET", `/transactions?account_id=${treasury.id}&page=1&page_size=${HISTORY_FIRST_PAGE}`, { kind: "answer", status: 200, text: empty }, 2);
      const first = await identicalInWorkspace(new CustodyClient({ baseUrl: proxy.baseUrl, operator: DEMO.treasuryBot }), everything, since());
      expect([first.compared, first.complete]).toEqual([0, false]);
    } finally {
      await proxy.close();
    }
  });

  it("uses nothing it remembers of a list that is not the one it read (a workspace reset): the duplicate is still found", async () => {
    const client = directClient(demo.emulator);
    for (let index = 0; index < 5; index += 1) {
      await client.createTransaction({ account_name: DEMO.solTreasury, amount: String(50_000 + index), max_fees: "7500", recipient, speed: "NORMAL" });
    }
    expect((await call(demo.treasury.client, "create_transaction", send())).structured.status).toBe("dry_run");
    // Ids start again lower than the newest this server read.
    await resetWorkspace(demo.emulator);
    const other = await server();
    const { confirmed } = await dryRunAndConfirm(other.client, "create_transaction", send());
    const again = await call(demo.treasury.client, "create_transaction", send());
    expect(blockingCodes(again.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(again.text).toContain(`as transaction ${(confirmed.structured.transaction as { id: number }).id}`);
  });
});
