import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEFAULT_POLICY,
  FileGuardStore,
  Policy,
  WriteRoad,
  type CommitResult,
  type ConsentPort,
  type CustodyClient,
  type PrepareResult,
  type WriteRequestOf,
} from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, control, startDemoEmulator, type RunningEmulator } from "./emulator-harness.js";

// The write road itself, with no surface: prepare then commit against the emulator, each outcome
// of the union and the audit events it writes, in their one order.

let emulator: RunningEmulator;
let client: CustodyClient;
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const actor = { person: null };
const accept: ConsentPort = { ask: async () => ({ answer: "accepted" }) };

beforeAll(async () => {
  emulator = await startDemoEmulator();
  client = clientFor(emulator, "treasury-bot");
});
afterAll(async () => {
  await emulator?.close();
});

function freshRoad(): { road: WriteRoad; events: () => string[] } {
  const path = join(mkdtempSync(join(tmpdir(), "road-")), "audit.jsonl");
  const road = new WriteRoad({
    client,
    operator: "treasury-bot",
    policy: () => DEFAULT_POLICY,
    store: new FileGuardStore(path),
    surface: "test",
    lookupHorizonMs: 500,
  });
  // The road's events, after the `sealed` record a new log begins with (test/guard-store/sealed-tail.test.ts).
  const events = () => {
    const [sealed, ...rest] = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(sealed).toBe("sealed");
    return rest;
  };
  return { road, events };
}

function prepared(result: PrepareResult): Extract<PrepareResult, { status: "prepared" }> {
  if (result.status !== "prepared")
    throw new Error(
      `expected a prepared intent, got ${result.status}: ` +
        `${JSON.stringify(result.status === "blocked" ? result.plan.checks.filter((check) => check.severity === "block") : result)}`,
    );
  return result;
}

let amount = 1_000_000n;
const send = (): WriteRequestOf<"send"> => ({
  kind: "send",
  account: "sol-treasury",
  amount: (amount += 1n),
  max_fees: 10_000n,
  recipient: RECIPIENT,
  speed: "NORMAL",
});

describe("the write road", () => {
  it("prepares, then commits once: dry_run, confirmed, reserved, submitted", async () => {
    const { road, events } = freshRoad();
    const request = send();
    const intent = prepared(await road.prepare(request, { actor }));
    const result = await road.commit(request, intent.sealed.nonce, { actor, consent: accept });
    expect(result.status).toBe("submitted");
    expect(events()).toEqual(["dry_run", "confirmed", "reserved", "submitted"]);
    const again: CommitResult = await road.commit(request, intent.sealed.nonce, { actor, consent: accept });
    expect(again).toMatchObject({ status: "refused", reason: "reused", transaction_id: result.status === "submitted" ? result.transaction.id : -1 });
  });

  it("asks the person after every check passed, and a decline sends nothing: dry_run, declined", async () => {
    const { road, events } = freshRoad();
    const request = send();
    const intent = prepared(await road.prepare(request, { actor }));
    let asked = 0;
    const result = await road.commit(request, intent.sealed.nonce, {
      actor,
      consent: { ask: async () => ((asked += 1), { answer: "declined", detail: "no" }) },
    });
    expect(asked).toBe(1);
    expect(result.status).toBe("declined");
    expect(events()).toEqual(["dry_run", "declined"]);
  });

  it("refuses the confirmation of a dry run another person ran without using it up: its owner still confirms it", async () => {
    const { road, events } = freshRoad();
    const request = send();
    const alice = { person: { subject: "alice", groups: [], roles: [] } };
    const intent = prepared(await road.prepare(request, { actor: alice }));
    expect(intent.sealed.person).toBe("alice");
    for (const person of [{ subject: "bob", groups: [], roles: [] }, null]) {
      expect(await road.question(request, intent.sealed.nonce, { actor: { person } })).toMatchObject({ status: "refused", reason: "other_person" });
      expect(await road.commit(request, intent.sealed.nonce, { actor: { person }, consent: accept })).toMatchObject({
        status: "refused",
        reason: "other_person",
      });
    }
    expect(await road.question(request, intent.sealed.nonce, { actor: alice })).toMatchObject({ status: "question" });
    expect(await road.commit(request, intent.sealed.nonce, { actor: alice, consent: accept })).toMatchObject({ status: "submitted" });
    expect(events()).toEqual(["dry_run", "refused", "refused", "refused", "refused", "confirmed", "reserved", "submitted"]);
  });

  it("keeps one person's dry run when another person makes the identical one: only a newer dry run of the same person supersedes it", async () => {
    const { road } = freshRoad();
    const request = send();
    const [alice, bob] = [{ person: { subject: "alice", groups: [], roles: [] } }, { person: { subject: "bob", groups: [], roles: [] } }];
    const hers = prepared(await road.prepare(request, { actor: alice }));
    const his = prepared(await road.prepare(request, { actor: bob }));
    expect(hers.sealed.fingerprint).toBe(his.sealed.fingerprint);
    expect(await road.question(request, hers.sealed.nonce, { actor: alice })).toMatchObject({ status: "question" });
    const newer = prepared(await road.prepare(request, { actor: bob }));
    expect(await road.commit(request, his.sealed.nonce, { actor: bob, consent: accept })).toMatchObject({ status: "refused", reason: "superseded" });
    expect(newer.sealed.nonce).not.toBe(his.sealed.nonce);
  });

  it("refuses a person whose role acts as another operator than the road's: a surface must hand them their operator's road", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "road-")), "audit.jsonl");
    const policy = Policy.parse({ roles: [{ name: "stakers", when: { subjects: ["sam"] }, operator: "staking-bot" }] });
    const road = new WriteRoad({ client, operator: "treasury-bot", policy: () => policy, store: new FileGuardStore(path), surface: "test" });
    const result = await road.prepare(send(), { actor: { person: { subject: "sam", groups: [], roles: [] } } });
    expect(result).toMatchObject({
      status: "refused",
      reason: "permission",
      message: "this write would be made as operator treasury-bot, but your role acts as staking-bot",
    });
  });

  it("refuses an older intent voided by a newer dry run, and a request that differs", async () => {
    const { road } = freshRoad();
    const request = send();
    const older = prepared(await road.prepare(request, { actor }));
    const newer = prepared(await road.prepare(request, { actor }));
    expect(await road.commit(request, older.sealed.nonce, { actor, consent: accept })).toMatchObject({ status: "refused", reason: "superseded" });
    expect(await road.commit({ ...request, amount: request.amount + 1n }, newer.sealed.nonce, { actor, consent: accept })).toMatchObject({
      status: "refused",
      reason: "digest_mismatch",
    });
  });

  it("reports a lost answer as uncertain, and its background look-up records what it found", async () => {
    const { road, events } = freshRoad();
    const request = send();
    const intent = prepared(await road.prepare(request, { actor }));
    await control(emulator, "PUT", "/faults", { drop_after_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1, latency_ms: 1200 });
    const slow = new WriteRoad({
      client: clientFor(emulator, "treasury-bot"),
      operator: "treasury-bot",
      policy: () => DEFAULT_POLICY,
      store: road.store,
      surface: "test",
      lookupFirstDelayMs: 50,
      lookupHorizonMs: 5000,
    });
    const result = await slow.commit(request, intent.sealed.nonce, { actor, consent: accept });
    await control(emulator, "DELETE", "/faults");
    // drop_after: handled, then the connection closed without the answer; the quick look-up finds it.
    expect(["submitted", "uncertain"]).toContain(result.status);
    if (result.status === "submitted") expect(result.looked_up).toBe(true);
    await slow.lookupsSettled();
    expect(events().slice(0, 3)).toEqual(["dry_run", "confirmed", "reserved"]);
    expect(events()).toContain("ambiguous");
  });
});
