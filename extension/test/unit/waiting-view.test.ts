import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import {
  CustodyClient,
  DEFAULT_POLICY,
  FileGuardStore,
  PeopleTally,
  STOPPED_BEFORE_RESERVING,
  WriteRoad,
  type AuditRecord,
  type WriteRequest,
} from "@custody/shared";
import { startEmulator } from "@custody/emulator";
import { fake } from "./support/fake-vscode.js";
import { newestTransaction, startHarness, waitFor, type Harness } from "./support/extension-harness.js";
import type { WaitingProvider } from "../../src/views/waiting-provider.js";
import { WaitingNode } from "../../src/views/nodes/waiting-node.js";
import type { TreeItem } from "./support/fake-vscode.js";

const VALIDATOR = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
const STAKE: WriteRequest = { kind: "solana_create_stake", account: "sol-treasury", amount: 1_500_000_000n, validator: VALIDATOR };

function logPath(harness: Harness): string {
  return join(harness.storage, "audit", "custody-vscode-audit.jsonl");
}

function records(harness: Harness): AuditRecord[] {
  return readFileSync(logPath(harness), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditRecord);
}

/** A person-mode dry run as the MCP server makes it: its own store on the extension's log, a nonce derived from the reference. */
async function assistantDryRun(
  harness: Harness,
  request: WriteRequest = STAKE,
  baseUrl = harness.baseUrl,
  intentTtlMs?: number,
): Promise<{ store: FileGuardStore; reference: string; nonce: string }> {
  const store = new FileGuardStore(logPath(harness));
  const road = new WriteRoad({
    client: new CustodyClient({ baseUrl, operator: harness.operator }),
    operator: harness.operator,
    policy: () => DEFAULT_POLICY,
    store,
    surface: "mcp",
    ...(intentTtlMs === undefined ? {} : { intentTtlMs }),
  });
  const prepared = await road.prepare(request, { actor: { person: null }, nonceFor: (reference) => `${reference.slice(3)}${"0".repeat(12)}` });
  if (prepared.status !== "prepared") throw new Error(`the dry run was ${prepared.status}`);
  return { store, reference: prepared.plan.correlation_id, nonce: prepared.sealed.nonce };
}

function waitingView() {
  const view = fake.treeViews.get("custody.waiting");
  return { provider: view?.treeDataProvider as WaitingProvider, badge: () => view?.badge?.value ?? 0 };
}

describe("Waiting for you", () => {
  let harness: Harness;
  afterEach(async () => {
    await harness.close();
  });

  it("lists a write an assistant prepared in person mode, with a badge; Confirm sends it once, through vscode, and it leaves the list", async () => {
    harness = await startHarness();
    const view = waitingView();
    expect(view.badge()).toBe(0);
    const { store, reference } = await assistantDryRun(harness);
    // Another process wrote it: the view learns of it from the store's waiting entries, not from a command.
    await waitFor(() => view.badge() === 1, "the badge to count the waiting write");
    const [node] = await view.provider.getChildren();
    expect(node).toBeInstanceOf(WaitingNode);
    const item = node?.treeItem() as unknown as TreeItem;
    // What moves first, as the modal's message says it.
    expect(item.label).toMatch(new RegExp(`^Stake SOL from account 1: 1\\.5 SOL \\(1500000000 lamport\\) to validator ${VALIDATOR}; fee `));
    expect(item.description).toBe(reference);
    expect((node as WaitingNode).write.reference).toBe(reference);

    const before = await newestTransaction(harness);
    fake.script({ kind: "modal", choice: "Confirm" });
    await harness.run("custody.decideWaiting", node);
    const modal = fake.messages.find((message) => message.modal);
    expect(modal?.items).toEqual(["Confirm", "Decline"]);
    expect(modal?.message).toContain("An assistant prepared this write. Send this request? Stake SOL from account 1: 1.5 SOL (1500000000 lamport)");
    expect(modal?.detail).toContain(`POST /solana/accounts/1/stakes\n{"amount":1500000000,"validator":"${VALIDATOR}"}`);
    const created = await newestTransaction(harness);
    expect(created?.id).toBe((before?.id ?? 0) + 1);
    expect(created?.amount).toBe(1_500_000_000n);
    expect(records(harness).find((record) => record.event === "confirmed")).toMatchObject({ surface: "vscode", details: { through: "vscode", reference } });
    const tally = new PeopleTally();
    for (const record of records(harness)) tally.add(record);
    expect(tally.summary().people.find((person) => person.person === null)?.confirmed_through).toEqual({ vscode: 1 });
    await waitFor(() => view.badge() === 0, "the badge to clear");
    expect(await view.provider.getChildren()).toHaveLength(1);
    expect(((await view.provider.getChildren())[0] as { treeItem(): TreeItem }).treeItem().label).toBe("No write waits for you");
    // A second Confirm finds nothing to confirm: nothing more is sent.
    fake.script();
    await harness.run("custody.decideWaiting", node);
    expect((await newestTransaction(harness))?.id).toBe(created?.id);
    await store.close();
  });

  it("Decline sends nothing and records the decision (the assistant's retried call reads declined); closing the dialog leaves it waiting", async () => {
    harness = await startHarness();
    const view = waitingView();
    const { store, nonce } = await assistantDryRun(harness);
    await waitFor(() => view.badge() === 1, "the badge to count the waiting write");
    const before = await newestTransaction(harness);
    fake.script({ kind: "modal", choice: undefined });
    await harness.run("custody.decideWaiting", (await view.provider.getChildren())[0]);
    expect(await store.lookUpIntent(nonce)).toMatchObject({ outcome: "open" });
    expect(view.badge()).toBe(1);
    // From the palette: the one waiting write is offered in a pick.
    fake.script({ kind: "pick", label: "Stake SOL" }, { kind: "modal", choice: "Decline" });
    await harness.run("custody.decideWaiting");
    expect((await newestTransaction(harness))?.id).toBe(before?.id);
    // Used, and stopped before reserving: what person-standing answers `declined`.
    expect(await store.lookUpIntent(nonce)).toEqual({ outcome: "reused", reference: STOPPED_BEFORE_RESERVING });
    expect(records(harness).find((record) => record.event === "declined")).toMatchObject({ surface: "vscode", details: { through: "vscode" } });
    await waitFor(() => view.badge() === 0, "the badge to clear");
    await store.close();
  });

  it("sends nothing for a write that expired while its dialog was open, and it leaves the list", async () => {
    harness = await startHarness();
    const view = waitingView();
    // A dry run that lives a few seconds, so that it expires while the person reads the dialog.
    const { store } = await assistantDryRun(harness, STAKE, harness.baseUrl, 3_000);
    await waitFor(() => view.badge() === 1, "the badge to count the waiting write");
    const [node] = await view.provider.getChildren();
    const expiresAt = (node as WaitingNode).write.expires_at;
    const before = await newestTransaction(harness);
    fake.script({ kind: "modal", choice: "Confirm", before: () => waitFor(() => Date.now() > expiresAt, "the dry run to expire", 10_000) });
    await harness.run("custody.decideWaiting", node);
    expect(fake.messages.find((message) => message.modal)?.items).toEqual(["Confirm", "Decline"]);
    expect((await newestTransaction(harness))?.id).toBe(before?.id);
    expect(records(harness).filter((record) => record.event === "confirmed" || record.event === "reserved")).toEqual([]);
    expect(records(harness).find((record) => record.event === "refused")).toMatchObject({ surface: "vscode", details: { reason: "expired" } });
    await waitFor(() => view.badge() === 0, "the badge to clear");
    await store.close();
  });

  it(
    "a write an assistant prepared against another custody service is neither listed " + "nor sent through this one (same operator, same account ids)",
    async () => {
      harness = await startHarness();
      const view = waitingView();
      // The assistant's server talks to another workspace (a staging copy, the emulator) with the same operator and account ids.
      const elsewhere = await startEmulator({ port: 0, seed: "demo", dataDir: null, processingDelayMs: 10, log: () => undefined });
      try {
        const { store, reference, nonce } = await assistantDryRun(harness, STAKE, elsewhere.baseUrl);
        await view.provider.read();
        expect(view.badge()).toBe(0);
        expect(await view.provider.writes()).toEqual([]);
        // Even when it is handed to the command (a node made from the store's entry), the extension's service is not where it was prepared.
        const before = await newestTransaction(harness);
        fake.script({ kind: "modal", choice: "Confirm" });
        await harness.run(
          "custody.decideWaiting",
          new WaitingNode({ nonce, reference, tool: STAKE.kind, moves: null, moves_text: null, expires_at: Date.now() + 60_000 }),
        );
        expect((await newestTransaction(harness))?.id).toBe(before?.id);
        expect(fake.messages.find((message) => message.modal)).toBeUndefined();
        await store.close();
      } finally {
        await elsewhere.close();
      }
    },
  );
});
