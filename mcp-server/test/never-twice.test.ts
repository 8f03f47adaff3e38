import { readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { blockingCodes, dryRunAndConfirm, passedCodes } from "./harness/guarded-write.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, transactionsWithLabel } from "./harness/demo-workspace.js";
import { startHoldingProxy, type HoldingProxy } from "./harness/holding-proxy.js";
import { call, connectHarness, connectSession, startTestEmulator, type Harness } from "./harness/mcp-harness.js";

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

function auditRecords(path: string): { event: string; tool: string; transaction_id?: number | null; details?: Record<string, unknown>; request?: Record<string, unknown> }[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
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
    const other = (await directClient(emulator).listAllAccounts()).find((account) => account.currency === treasury.currency && account.id !== treasury.id && account.id !== cold.id) ?? cold;
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

  it("refuses right before the POST when the name the body sends came to name another account too", async () => {
    const cold = await accountNamed(emulator, DEMO.solCold);
    const treasury = await accountNamed(emulator, DEMO.solTreasury);
    // While the person reads the form, another account takes the name the request body carries.
    harness = await connectHarness(emulator, {
      elicit: async () => {
        await control(emulator, "PUT", `/accounts/${cold.id}/name`, { name: DEMO.solTreasury, allow_duplicate_name: true });
        return { action: "accept", content: { confirm: true } };
      },
    });
    const args = { account: treasury.id, recipient: (await accountNamed(emulator, DEMO.ethOps)).address, amount: "0.5", unit: "SOL" };
    const valid = { ...args, recipient: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" };
    const dry = await call(harness.client, "create_transaction", valid);
    expect(dry.structured.status).toBe("dry_run");
    const confirmed = await call(harness.client, "create_transaction", { ...valid, confirmation_token: dry.token });
    expect(confirmed.structured).toMatchObject({ status: "refused", reason: "binding_changed" });
    expect(confirmed.text).toContain(`no longer names account ${treasury.id} alone`);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("confirms a token only in the session that ran its dry run", async () => {
    harness = await connectHarness(emulator);
    const dry = await call(harness.client, "create_transaction", send());
    const other = await connectSession(harness.ctx);
    try {
      const elsewhere = await call(other.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(elsewhere.structured).toMatchObject({ status: "refused", reason: "other_session" });
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
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

  it("a POST that lands after the client's timeout is uncertain, sends progress, is found later by the background look-up, audited, and named by the next dry run", async () => {
    proxy = await startHoldingProxy(emulator);
    harness = await connectHarness(emulator, { baseUrl: proxy.baseUrl, timeoutMs: 1500, lookupFirstDelayMs: 300, lookupHorizonMs: 30_000 });
    const args = send({ max_fees: "7500", max_fees_unit: "lamport" });
    const dry = await call(harness.client, "create_transaction", args);
    const reference = dry.structured.reference as string;
    proxy.hold("POST", "/transactions", { kind: "late", holdMs: 4000 });
    const progress: string[] = [];
    const result = await harness.client.callTool(
      { name: "create_transaction", arguments: { ...args, confirmation_token: dry.token } },
      undefined,
      { onprogress: (notification) => progress.push(notification.message ?? ""), resetTimeoutOnProgress: true },
    );
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured.status).toBe("uncertain");
    expect(String(structured.error)).toContain("it may still be applied");
    expect(String(structured.error)).toContain(`search the transactions by its reference ${reference}`);
    expect(String(structured.error)).not.toMatch(/not applied/);
    expect(progress.length).toBeGreaterThan(0);
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
    expect(search.text).toContain(String(landed[0]));
    const next = await call(harness.client, "create_transaction", args);
    expect(blockingCodes(next.structured)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(next.text).toContain(`as transaction ${landed[0]}`);
    expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
  }, 60_000);

  it("a POST whose connection broke before it reached the service is still uncertain, never not applied; nothing is re-sent", async () => {
    proxy = await startHoldingProxy(emulator);
    harness = await connectHarness(emulator, { baseUrl: proxy.baseUrl, lookupFirstDelayMs: 100, lookupHorizonMs: 1000 });
    const args = send({ max_fees: "7500", max_fees_unit: "lamport" });
    const dry = await call(harness.client, "create_transaction", args);
    proxy.hold("POST", "/transactions", { kind: "drop" });
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
