import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_POLICY, FileGuardStore, WriteRoad } from "@custody/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { fake } from "./support/fake-vscode.js";
import { startHarness, type Harness } from "./support/extension-harness.js";

const VALIDATOR = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";

describe("a write the operator made through another store", () => {
  let harness: Harness | undefined;
  const elsewhere = mkdtempSync(join(tmpdir(), "custody-elsewhere-"));
  afterEach(async () => {
    await harness?.close();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it("is named by the extension's duplicate modal from the workspace's transactions, and nothing is sent unless the person says so", async () => {
    harness = await startHarness();
    // The same operator's assistant, with an audit log of its own, stakes 1.5 SOL.
    const store = new FileGuardStore(join(elsewhere, "audit.jsonl"));
    const road = new WriteRoad({ client: harness.client, operator: harness.operator, policy: () => DEFAULT_POLICY, store, surface: "mcp" });
    const request = { kind: "solana_create_stake" as const, account: "sol-treasury", amount: 1_500_000_000n, validator: VALIDATOR };
    const actor = { session: "assistant", person: null };
    const prepared = await road.prepare(request, { actor });
    if (prepared.status !== "prepared") throw new Error(`the assistant's dry run was ${prepared.status}`);
    const sent = await road.commit(request, prepared.sealed.nonce, { actor, consent: { ask: () => Promise.resolve({ answer: "accepted" as const }) } });
    if (sent.status !== "submitted") throw new Error(`the assistant's stake was ${sent.status}`);
    await store.close();

    fake.script(
      { kind: "pick", label: "sol-treasury" },
      { kind: "input", text: "1.5" },
      { kind: "pick", label: VALIDATOR },
      { kind: "modal", choice: undefined },
    );
    await harness.run("custody.solana.createStake");
    const asked = fake.messages.filter((message) => message.modal).at(-1);
    expect(asked?.message).toContain("this would send the same request twice");
    expect(asked?.detail).toContain(`as transaction ${sent.transaction.id}`);
    expect(asked?.detail).toContain("found in the workspace's transactions");
    const newest = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
    expect(newest?.id).toBe(sent.transaction.id);
  });
});
