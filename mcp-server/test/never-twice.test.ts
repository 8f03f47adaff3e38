import { readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import { verifyAuditLog } from "@custody/shared";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { blockingCodes, dryRunAndConfirm, passedCodes } from "./harness/guarded-write.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, transactionsWithLabel } from "./harness/demo-workspace.js";
import { startHoldingProxy, type HoldingProxy, type HoldRule } from "./harness/holding-proxy.js";
import { call, connectHarness, connectSession, startTestEmulator, type Harness, type HarnessOptions } from "./harness/mcp-harness.js";

// One intent, one transaction: each case reproduced through a real MCP client against the emulator.

let emulator: RunningEmulator;
let harness: Harness;
let recipient: string;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  await resetWorkspace(emulator);
  recipient = (await accountNamed(emulator, DEMO.solCold)).address;
});
afterEach(async () => {
  await harness?.close();
});

const send = (extra: Record<string, unknown> = {}) => ({ account: DEMO.solTreasury, recipient, amount: "1.5", unit: "SOL", ...extra });

/** The form opens with the fixed sentence alone; what moves comes before the finding's workspace text naming the earlier write. */
function expectMovesBeforeFinding(form: string, first: string, finding: string): void {
  const lines = form.split("\n");
  expect(lines[0]).toBe(first);
  const lastMove = Math.max(...["Account: ", "Amount: ", "Recipient: ", "Fee: "].map((lead) => lines.findIndex((line) => line.startsWith(lead))));
  expect(lines.slice(1, lastMove + 1).join("\n")).not.toContain(finding);
  expect(lines.slice(lastMove + 1).join("\n")).toContain(finding);
}

function auditRecords(
  path: string,
): { event: string; tool: string; transaction_id?: number | null; details?: Record<string, unknown>; request?: Record<string, unknown> }[] {
  const [sealed, ...records] = readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { event: string; tool: string });
  // A new log begins with its `sealed` record (test/guard-store/sealed-tail.test.ts); the calls' records follow it.
  expect(sealed).toMatchObject({ event: "sealed", tool: "first_seal" });
  return records;
}

describe("two dry runs of the same request", () => {
  it("void the first token: only the newest dry run confirms, and one transaction is sent", async () => {
    harness = await connectHarness(emulator);
    const first = await call(harness.client, "create_transaction", send());
    const second = await call(harness.client, "create_transaction", send());
    expect([first.structured.status, second.structured.status]).toEqual(["dry_run", "dry_run"]);
    const stale = await call(harness.client, "create_transaction", send({ confirmation_token: first.token }));
    expect(stale.structured).toMatchObject({ status: "refused", reason: "superseded" });
    expect(stale.text).toContain("a newer dry run of the same write was made since");
    const confirmed = await call(harness.client, "create_transaction", send({ confirmation_token: second.token }));
    expect(confirmed.structured.status).toBe("submitted");
    expect(await transactionsWithLabel(emulator, first.structured.reference as string)).toEqual([]);
    expect(await transactionsWithLabel(emulator, second.structured.reference as string)).toHaveLength(1);
  });

  it("a request identical to one already submitted is blocked, naming it; repeating it takes repeat_of naming exactly that transaction", async () => {
    harness = await connectHarness(emulator);
    const { confirmed } = await dryRunAndConfirm(harness.client, "create_transaction", send());
    const earlier = confirmed.structured.transaction as { id: number; status: string };
    const again = await call(harness.client, "create_transaction", send());
    expect(again.structured.status).toBe("blocked");
    expect(blockingCodes(again.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(again.text).toMatch(new RegExp(`submitted at \\S+ as transaction ${earlier.id} \\(status [A-Z_]+\\)`));
    expect(again.text).toContain(`repeat_of "${earlier.id}"`);
    // A guessed or stale acknowledgement does not pass.
    const wrong = await call(harness.client, "create_transaction", send({ repeat_of: String(earlier.id + 1) }));
    expect(blockingCodes(wrong.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    const nothing = await call(harness.client, "create_transaction", send({ amount: "1.25", repeat_of: String(earlier.id) }));
    expect(blockingCodes(nothing.structured)).toEqual(["REPEAT_OF_NOTHING"]);
    // On purpose: a new dry run that names the earlier transaction, confirmed as usual.
    const { dry, confirmed: repeated } = await dryRunAndConfirm(harness.client, "create_transaction", send({ repeat_of: String(earlier.id) }));
    expect(passedCodes(dry)).toContain("REPEAT_ACKNOWLEDGED");
    expect(repeated.structured.status).toBe("submitted");
    const reserved = auditRecords(harness.auditPath).filter((record) => record.event === "reserved");
    expect(reserved.at(-1)?.details).toMatchObject({ repeat_of: String(earlier.id) });
    expect(reserved.at(-1)?.request).toMatchObject({ repeat_of: String(earlier.id) });
  });

  it("the same send written a little differently is still the same intent: a fee cap written out, another letter case, a note", async () => {
    harness = await connectHarness(emulator);
    const { dry } = await dryRunAndConfirm(harness.client, "create_transaction", send());
    const fee = (dry.structured.amounts as { max_fees: { base_units: string } }).max_fees.base_units;
    for (const variant of [
      send({ max_fees: fee, max_fees_unit: "lamport" }),
      send({ note: "retry" }),
      send({ amount: "1500000000", unit: "lamport", speed: "FAST" }),
    ]) {
      const again = await call(harness.client, "create_transaction", variant);
      expect(blockingCodes(again.structured), JSON.stringify(variant)).toEqual(["DUPLICATE_OF_RECENT"]);
    }
    const ops = await accountNamed(emulator, DEMO.ethOps);
    const eth = { account: DEMO.ethStaking, recipient: ops.address, amount: "0.01", unit: "ETH" };
    await dryRunAndConfirm(harness.client, "create_transaction", eth);
    const lower = await call(harness.client, "create_transaction", { ...eth, recipient: ops.address.toLowerCase() });
    expect(blockingCodes(lower.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
  });

  it("a note may not imitate the guard's reference marker", async () => {
    harness = await connectHarness(emulator);
    const answer = await call(harness.client, "create_transaction", send({ note: "resend of [ref cw-0123456789abcdef0123]" }));
    expect(answer.structured.status).toBe("failed");
    expect(answer.text).toContain('must not contain "[ref"');
  });

  it("the person's form says when a write repeats an earlier one on purpose, naming it", async () => {
    const forms: string[] = [];
    harness = await connectHarness(emulator, { elicit: (message) => (forms.push(message), { action: "accept", content: { confirm: true } }) });
    const { confirmed } = await dryRunAndConfirm(harness.client, "create_transaction", send());
    const earlier = (confirmed.structured.transaction as { id: number }).id;
    await dryRunAndConfirm(harness.client, "create_transaction", send({ repeat_of: String(earlier) }));
    expect(forms[0]).not.toContain("SENDS AGAIN");
    expectMovesBeforeFinding(forms[1] ?? "", "THIS SENDS AGAIN what was already sent.", `as transaction ${earlier}`);
  });

  it("a duplicate confirmed after its dry run (the first write landed in between) is blocked, and sends nothing", async () => {
    harness = await connectHarness(emulator);
    const first = await call(harness.client, "create_transaction", send());
    const other = await connectSession(harness.ctx);
    try {
      // Another session of the same server: its dry run voids the first token, so confirm each before the next.
      const submitted = await call(harness.client, "create_transaction", send({ confirmation_token: first.token }));
      expect(submitted.structured.status).toBe("submitted");
      const second = await call(other.client, "create_transaction", send());
      expect(second.structured.status).toBe("blocked");
      expect(blockingCodes(second.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    } finally {
      await other.close();
    }
  });
});

describe("the token binds what the person saw", () => {
  it("refuses the confirmation when the name moved to another account, and sends nothing", async () => {
    harness = await connectHarness(emulator);
    const treasury = await accountNamed(emulator, DEMO.solTreasury);
    const cold = await accountNamed(emulator, DEMO.solCold);
    const other =
      (await directClient(emulator).listAllAccounts()).find(
        (account) => account.currency === treasury.currency && account.id !== treasury.id && account.id !== cold.id,
      ) ?? cold;
    const args = { account: DEMO.solTreasury, recipient: cold.address, amount: "0.5", unit: "SOL" };
    const dry = await call(harness.client, "create_transaction", args);
    expect(dry.structured.account).toMatchObject({ id: treasury.id });
    await control(emulator, "PUT", `/accounts/${treasury.id}/name`, { name: "sol-treasury-old" });
    await control(emulator, "PUT", `/accounts/${other.id}/name`, { name: DEMO.solTreasury });
    const confirmed = await call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
    expect(confirmed.structured).toMatchObject({ status: "refused", reason: "binding_changed" });
    expect(confirmed.text).toContain(`the dry run was for account ${treasury.id}, but this confirmation names account ${other.id}`);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it.each([
    ["by id", (id: number) => `#${id}`],
    ["by name, resolved through the name directory's hint", () => DEMO.solTreasury],
  ] as const)(
    "refuses right before the POST when the name the body sends came to name another account too (the dry run named it %s)",
    async (_how, reference) => {
      const cold = await accountNamed(emulator, DEMO.solCold);
      const treasury = await accountNamed(emulator, DEMO.solTreasury);
      // While the person reads the form, another account takes the name the request body carries.
      harness = await connectHarness(emulator, {
        elicit: async () => {
          await control(emulator, "PUT", `/accounts/${cold.id}/name`, { name: DEMO.solTreasury, allow_duplicate_name: true });
          return { action: "accept", content: { confirm: true } };
        },
      });
      const args = { account: reference(treasury.id), recipient: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", amount: "0.5", unit: "SOL" };
      const dry = await call(harness.client, "create_transaction", args);
      expect(dry.structured.status).toBe("dry_run");
      const confirmed = await call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured).toMatchObject({ status: "refused", reason: "binding_changed" });
      expect(confirmed.text).toContain(`that name now belongs to accounts ${treasury.id}, ${cold.id}, not to account ${treasury.id} alone`);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
    },
  );

  it("binds a token to the person, not the session: another session of the same single user confirms it, once", async () => {
    harness = await connectHarness(emulator);
    const dry = await call(harness.client, "create_transaction", send());
    const other = await connectSession(harness.ctx);
    try {
      const elsewhere = await call(other.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(elsewhere.structured.status, elsewhere.text).toBe("submitted");
      const again = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(again.structured).toMatchObject({ status: "refused", reason: "reused" });
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe("unknown is not absent", () => {
  let proxy: HoldingProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** A send's dry run through a proxy that holds its confirmation's POST by the rule. */
  async function dryRunThenHold(options: HarnessOptions, rule: HoldRule) {
    proxy = await startHoldingProxy(emulator);
    harness = await connectHarness(emulator, { baseUrl: proxy.baseUrl, ...options });
    const args = send({ max_fees: "7500", max_fees_unit: "lamport" });
    const dry = await call(harness.client, "create_transaction", args);
    proxy.hold("POST", "/transactions", rule);
    return { proxy, args, dry, reference: dry.structured.reference as string };
  }

  it(
    "a POST that lands after the client's timeout is uncertain, sends progress, is found later " +
      "by the background look-up, audited, and named by the next dry run",
    async () => {
      const { proxy, args, dry, reference } = await dryRunThenHold(
        { timeoutMs: 1500, lookupFirstDelayMs: 300, lookupHorizonMs: 30_000 },
        { kind: "late", holdMs: 4000 },
      );
      const progress: string[] = [];
      const result = await harness.client.callTool(
        { name: "create_transaction", arguments: { ...args, confirmation_token: dry.token } },
        { onprogress: (notification) => progress.push(notification.message ?? ""), resetTimeoutOnProgress: true },
      );
      const structured = result.structuredContent as Record<string, unknown>;
      expect(structured.status).toBe("uncertain");
      expect(String(structured.error)).toContain("it may still be applied");
      expect(String(structured.error)).toContain(`search the transactions by its reference ${reference}`);
      expect(String(structured.error)).not.toMatch(/not applied/);
      expect(progress.length).toBeGreaterThan(0);
      // A search by the reference says what the guard knows while nothing is found yet.
      const early = await call(harness.client, "search_transactions", { label: reference });
      expect(early.text).toContain(`Guard: ${reference} create_transaction sent `);
      expect(early.text).toMatch(
        /UNKNOWN, still being looked up( \(\d+ look-ups? so far, the last at \S+Z found nothing\))?: it may still be applied and counts against the daily limit/,
      );
      expect(early.structured.guard).toMatchObject({ reference, status: "uncertain", looking_up: true });
      // Asked again while it is still unknown: the next dry run names it.
      const meanwhile = await call(harness.client, "create_transaction", args);
      expect(blockingCodes(meanwhile.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
      expect(meanwhile.text).toContain(`(reference ${reference})`);
      await proxy.forwarded();
      const landed = await transactionsWithLabel(emulator, reference);
      expect(landed).toHaveLength(1);
      await harness.ctx.road.lookupsSettled();
      const resolved = auditRecords(harness.auditPath).find((record) => record.event === "resolved");
      expect(resolved).toMatchObject({ transaction_id: landed[0], details: { reference, outcome: "found" } });
      // The search by the reference finds it; the next dry run names the transaction.
      const search = await call(harness.client, "search_transactions", { label: reference });
      expect(search.text).toContain(`was submitted as transaction ${landed[0]}`);
      const next = await call(harness.client, "create_transaction", args);
      expect(blockingCodes(next.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
      expect(next.text).toContain(`as transaction ${landed[0]}`);
      expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
    },
    60_000,
  );

  it(
    "an uncertain write that landed after its look-ups gave up is named by the next dry run as " +
      "the transaction it became, and cannot be repeated by its reference",
    async () => {
      const { proxy, args, dry, reference } = await dryRunThenHold(
        { timeoutMs: 1000, lookupFirstDelayMs: 100, lookupHorizonMs: 300 },
        { kind: "late", holdMs: 2500 },
      );
      const lost = await call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(lost.structured.status).toBe("uncertain");
      await harness.ctx.road.lookupsSettled();
      expect(auditRecords(harness.auditPath).at(-1)).toMatchObject({ event: "resolved", details: { outcome: "not_found" } });
      await proxy.forwarded();
      const [landed] = await transactionsWithLabel(emulator, reference);
      const next = await call(harness.client, "create_transaction", { ...args, repeat_of: reference });
      expect(blockingCodes(next.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
      expect(next.text).toContain(`as transaction ${landed}`);
      expect(auditRecords(harness.auditPath).slice(-2)).toMatchObject([
        { event: "resolved", transaction_id: landed, details: { reference, outcome: "found" } },
        { event: "blocked", details: { stage: "dry_run" } },
      ]);
      expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
    },
    30_000,
  );

  it("a POST whose connection broke before it reached the service is still uncertain, never not applied; nothing is re-sent", async () => {
    const { proxy, args, dry } = await dryRunThenHold({ lookupFirstDelayMs: 100, lookupHorizonMs: 1000 }, { kind: "drop" });
    const pending = call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
    await proxy.held();
    proxy.release();
    const answer = await pending;
    expect(answer.structured.status).toBe("uncertain");
    expect(answer.text).not.toMatch(/not applied/);
    await harness.ctx.road.lookupsSettled();
    expect(auditRecords(harness.auditPath).at(-1)).toMatchObject({ event: "resolved", details: { outcome: "not_found" } });
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  /** A send whose POST is dropped on the way: its answer is uncertain, and its look-ups run. */
  async function droppedSend(options: HarnessOptions) {
    const held = await dryRunThenHold(options, { kind: "drop" });
    const pending = call(harness.client, "create_transaction", { ...held.args, confirmation_token: held.dry.token });
    await held.proxy.held();
    held.proxy.release();
    expect((await pending).structured.status).toBe("uncertain");
    return held;
  }

  /** A send whose POST is dropped on the way, and whose look-ups then stop without finding it. */
  async function lostThenGivenUp() {
    const { args, dry, reference } = await droppedSend({ timeoutMs: 1000, lookupFirstDelayMs: 100, lookupHorizonMs: 500 });
    await harness.ctx.road.lookupsSettled();
    return { args, token: dry.token, reference };
  }

  const CONCLUDED =
    /UNKNOWN, not found by its reference in \d+ look-ups? until \d{4}-\d\d-\d\dT\d\d:\d\dZ, which have stopped: it may still be applied and counts against the daily limit/;

  /** How many look-ups the audit log records of the write. */
  const lookupsOf = (reference: string) =>
    auditRecords(harness.auditPath).filter((record) => record.event === "looked_up" && record.details?.reference === reference).length;

  it("after its look-ups stopped, a search by its reference says what was looked up and found, that it counts, and how to go on", async () => {
    const { reference } = await lostThenGivenUp();
    const answer = await call(harness.client, "search_transactions", { label: reference });
    expect(answer.text).toMatch(CONCLUDED);
    expect(lookupsOf(reference)).toBeGreaterThan(0);
    expect(answer.text).toContain(`not found by its reference in ${lookupsOf(reference)} look-up`);
    expect(answer.text).toContain(
      `search_transactions label ${reference} tells if it appeared; to send it again anyway, a new dry run of it names the repeat_of to pass`,
    );
    expect(answer.text).not.toContain("has an unknown outcome");
  }, 30_000);

  it("while its look-ups run, a search by its reference says how many were made so far and what the last found", async () => {
    const { reference } = await droppedSend({ timeoutMs: 1000, lookupFirstDelayMs: 100, lookupHorizonMs: 60_000 });
    await vi.waitFor(() => expect(lookupsOf(reference)).toBeGreaterThanOrEqual(2), { timeout: 15_000, interval: 50 });
    const answer = await call(harness.client, "search_transactions", { label: reference });
    expect(answer.text).toMatch(
      /UNKNOWN, still being looked up \(\d+ look-ups so far, the last at \d{4}-\d\d-\d\dT\d\d:\d\dZ found nothing\): it may still be applied/,
    );
    const counted = Number(/still being looked up \((\d+) look-ups so far/.exec(answer.text)?.[1]);
    expect(counted).toBeGreaterThanOrEqual(2);
    expect(counted).toBeLessThanOrEqual(lookupsOf(reference));
  }, 30_000);

  it("list_activity says a write is still being looked up as it stood when read, though the look-up stops before the answer is made", async () => {
    // A request timeout longer than the hold below: list_activity's held read is not given up and read again meanwhile.
    const { proxy, reference } = await droppedSend({ timeoutMs: 20_000, lookupFirstDelayMs: 100, lookupHorizonMs: 3_000 });
    // The window's transactions are held: the store's writes are read meanwhile, then the look-ups stop before the answer is made.
    proxy.hold("GET", "/transactions?page=1&", { kind: "until_released" });
    const activity = call(harness.client, "list_activity", {});
    await proxy.held();
    await harness.ctx.road.lookupsSettled();
    proxy.release();
    const line = (await activity).text.split("\n").find((text) => text.startsWith(reference));
    expect(line).toMatch(/: UNKNOWN, still being looked up( \(\d+ look-ups? so far, the last at \S+Z found nothing\))?: it may still be applied/);
    expect(line).not.toContain("no look-up under way in this server");
  }, 30_000);

  it("a new dry run says the earlier write is still being looked up as the store showed it, though its look-ups stop meanwhile", async () => {
    // Its look-ups: one at 2.5 s, the last at 3 s; the dry run's own look-up of it is held until they have stopped.
    const { args, proxy, reference } = await droppedSend({ timeoutMs: 20_000, lookupFirstDelayMs: 2_500, lookupHorizonMs: 3_000 });
    proxy.hold("GET", "/transactions?label=", { kind: "until_released" });
    const next = call(harness.client, "create_transaction", args);
    await proxy.held();
    await harness.ctx.road.lookupsSettled();
    proxy.release();
    const answer = await next;
    expect(blockingCodes(answer.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(answer.text).toContain(`(reference ${reference}) lost its answer, still being looked up`);
    expect(answer.text).not.toContain("no look-up under way in this server");
  }, 30_000);

  it("after its look-ups stopped, its confirmation used again and a new dry run of it say the same", async () => {
    const { args, token, reference } = await lostThenGivenUp();
    const again = await call(harness.client, "create_transaction", { ...args, confirmation_token: token });
    expect(again.structured).toMatchObject({ status: "refused", reason: "reused" });
    expect(again.text).toContain(`it went on to the write with reference ${reference}, UNKNOWN, not found by its reference in ${lookupsOf(reference)} look-up`);
    expect(again.text).toMatch(CONCLUDED);
    const next = await call(harness.client, "create_transaction", args);
    expect(blockingCodes(next.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(next.text).toContain(`lost its answer, not found by its reference in ${lookupsOf(reference)} look-up`);
    expect(next.text).toMatch(/lost its answer, not found by its reference in \d+ look-ups? until \S+Z, which have stopped: it may already be applied/);
  }, 30_000);

  it("a POST answered 503 with an error body is not called a lost answer: list_activity and the next dry run say what it was answered", async () => {
    harness = await connectHarness(emulator, { timeoutMs: 1000, lookupFirstDelayMs: 100, lookupHorizonMs: 500 });
    const args = send();
    const dry = await call(harness.client, "create_transaction", args);
    const reference = dry.structured.reference as string;
    await control(emulator, "PUT", "/faults", { error_rate: 1, error_status: 503, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    const confirmed = await call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
    expect(confirmed.structured.status).toBe("uncertain");
    expect(confirmed.text).toContain("the service answered HTTP 503 with an error that does not say whether the write was applied");
    await harness.ctx.road.lookupsSettled();
    expect(auditRecords(harness.auditPath).find((record) => record.event === "ambiguous")?.details?.answer).toEqual({ kind: "server_error", http_status: 503 });
    const answered = "was answered HTTP 503 with an error that does not say whether it was applied";
    const activity = await call(harness.client, "list_activity", {});
    expect(activity.structured.uncertain_writes).toEqual([expect.objectContaining({ reference, answer: { kind: "server_error", http_status: 503 } })]);
    const line = activity.text.split("\n").find((text) => text.startsWith(reference));
    expect(line).toMatch(new RegExp(`^${reference} create_transaction sent \\S+Z; at \\S+Z it ${answered}: UNKNOWN, not found by its reference`));
    expect(line).not.toMatch(/answer lost|lost its answer/);
    const next = await call(harness.client, "create_transaction", args);
    expect(blockingCodes(next.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(next.text).toContain(`(reference ${reference}) ${answered}, not found by its reference in `);
    expect(next.text).not.toContain("lost its answer");
  }, 30_000);

  it(
    "a look-up left by a process that stopped is resumed by the next process that " + "opens the store, which records the transaction the write became",
    async () => {
      // The first process's own look-ups would only start after ten minutes: as if it had stopped.
      const { proxy, args, dry, reference } = await dryRunThenHold(
        { timeoutMs: 1000, lookupFirstDelayMs: 600_000, lookupHorizonMs: 3_600_000 },
        { kind: "until_released" },
      );
      const confirmed = await call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status).toBe("uncertain");
      proxy.release();
      await proxy.forwarded();
      const [landed] = await transactionsWithLabel(emulator, reference);
      const next = await connectHarness(emulator, { auditPath: harness.auditPath });
      try {
        await next.ctx.road.lookupsSettled();
        expect(auditRecords(harness.auditPath).at(-1)).toMatchObject({
          event: "resolved",
          transaction_id: landed,
          details: { reference, outcome: "found", stage: "background_lookup" },
        });
        expect(harness.ctx.road.lookingUp(reference)).toBe(true);
      } finally {
        await next.close();
      }
    },
  );

  it("a look-up resumed by the next process records what it finds of a signed-in person's write under that person, as its sender would have", async () => {
    proxy = await startHoldingProxy(emulator);
    // The first process's own look-ups would only start after ten minutes: as if it had stopped.
    harness = await connectHarness(emulator, { baseUrl: proxy.baseUrl, timeoutMs: 1000, lookupFirstDelayMs: 600_000, lookupHorizonMs: 3_600_000 });
    const alice = await connectSession(harness.ctx, undefined, { subject: "alice", name: "Alice Martin", groups: [], roles: [] });
    try {
      const dry = await call(alice.client, "create_transaction", send());
      proxy.hold("POST", "/transactions", { kind: "until_released" });
      const confirmed = await call(alice.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(confirmed.structured.status).toBe("uncertain");
      proxy.release();
      await proxy.forwarded();
    } finally {
      await alice.close();
    }
    const next = await connectHarness(emulator, { auditPath: harness.auditPath });
    try {
      await next.ctx.road.lookupsSettled();
    } finally {
      await next.close();
    }
    const records = auditRecords(harness.auditPath);
    expect(records.find((record) => record.event === "reserved")).toMatchObject({ person: { subject: "alice" } });
    expect(records.at(-1)).toMatchObject({ event: "resolved", person: { subject: "alice" }, details: { outcome: "found", stage: "background_lookup" } });
    // verify-audit counts it as hers, under the name her own records give.
    const verdict = verifyAuditLog(harness.auditPath);
    expect(verdict.ok && verdict.people.find((tally) => tally.person?.subject === "alice")).toMatchObject({
      person: { subject: "alice", name: "Alice Martin" },
      events: { resolved: 1 },
    });
  }, 30_000);
});

describe("a write whose outcome is unknown", () => {
  it("is repeated only with repeat_of acknowledging that it may pay twice, and the person's form says so first", async () => {
    const forms: string[] = [];
    harness = await connectHarness(emulator, {
      elicit: (message) => (forms.push(message), { action: "accept", content: { confirm: true } }),
      lookupFirstDelayMs: 100,
      lookupHorizonMs: 500,
    });
    const dry = await call(harness.client, "create_transaction", send());
    // The POST is dropped before the service handles it: the server cannot know whether it was applied.
    await control(emulator, "PUT", "/faults", { drop_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    const confirmed = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(confirmed.structured.status).toBe("uncertain");
    await harness.ctx.road.lookupsSettled();
    const reference = dry.structured.reference as string;
    const again = await call(harness.client, "create_transaction", send());
    expect(blockingCodes(again.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(again.text).toContain("may already be applied");
    expect(again.text).toContain(`repeat_of "${reference}:may-pay-twice"`);
    expect(again.text).not.toContain("is being sent");
    const bare = await call(harness.client, "create_transaction", send({ repeat_of: reference }));
    expect(blockingCodes(bare.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    const repeated = await dryRunAndConfirm(harness.client, "create_transaction", send({ repeat_of: `${reference}:may-pay-twice` }));
    expect(repeated.confirmed.structured.status).toBe("submitted");
    expectMovesBeforeFinding(forms.at(-1) ?? "", "THIS SENDS AGAIN what may already be applied: IT MAY PAY TWICE.", reference);
  });
});

describe("a call its client cancels", () => {
  it("is audited in the server's own words: the reason the client gave is not taken for what happened", async () => {
    harness = await connectHarness(emulator);
    const dry = await call(harness.client, "create_transaction", send());
    // The confirmation's reads are slow: the client gives up while they run, naming a reason of its own choosing.
    await control(emulator, "PUT", "/faults", { latency_ms: 1500, methods: ["GET"], remaining: 5 });
    const reason = "HTTP 403 from the custody service: account frozen by compliance officer bob";
    const abort = new AbortController();
    const confirming = harness.client.callTool({ name: "create_transaction", arguments: send({ confirmation_token: dry.token }) }, { signal: abort.signal });
    // Once the first of its reads is being held by the service.
    await vi.waitFor(async () => expect(((await control(emulator, "GET", "/faults")) as { affected: number }).affected).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 50,
    });
    abort.abort(reason);
    await expect(confirming).rejects.toThrow();
    const failed = await vi.waitFor(
      () => {
        const record = auditRecords(harness.auditPath).find((candidate) => candidate.event === "failed");
        if (record === undefined) throw new Error("no failed record yet");
        return record;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(failed).toMatchObject({ error: "the call was cancelled before it completed" });
    expect(JSON.stringify(auditRecords(harness.auditPath))).not.toContain("compliance");
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  }, 30_000);
});

describe("every call that changes something is audited", () => {
  it("sync_account, create_operator and register_operator write audit records", async () => {
    harness = await connectHarness(emulator);
    const synced = await call(harness.client, "sync_account", { account: DEMO.solTreasury });
    expect(synced.isError).toBe(false);
    const created = await call(harness.client, "create_operator", { name: "audited-bot" });
    expect(created.isError).toBe(false);
    const registered = await call(harness.client, "register_operator", { name: "audited-bot", uuid: "123e4567-e89b-12d3-a456-426614174000" });
    const records = auditRecords(harness.auditPath);
    expect(records.map((record) => [record.tool, record.event])).toEqual([
      ["sync_account", "submitted"],
      ["create_operator", "submitted"],
      ["register_operator", registered.isError ? "failed" : "submitted"],
    ]);
    expect(records[0]?.request).toEqual({ account_id: (await accountNamed(emulator, DEMO.solTreasury)).id });
    expect(JSON.stringify(records)).not.toContain("123e4567-e89b-12d3-a456-426614174000");
  });
});
