import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { bundleAndEmulator } from "./harness/built-bundle.js";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, testClient } from "./harness/mcp-harness.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";

// Issue 18, two stores of one operator racing: two built servers (processes of their own, each with
// its own audit log: the extension's and an assistant's, or two machines) confirm the identical send
// at the same moment. The service has no idempotency key (spec-decisions), so both pass their last
// check before either POST lands; each re-reads the account's window after its POST, and the later names the earlier.

const built = bundleAndEmulator();

/** A server process of the treasury bot with an audit log (and HOME) of its own, over stdio. */
async function serverProcess(): Promise<{ client: Client; log: string }> {
  const log = join(tempDir("custody-race-"), "audit.jsonl");
  const env = {
    PATH: process.env.PATH ?? "",
    ...childHome(),
    CUSTODY_BASE_URL: built.emulator.baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: log,
  };
  const client = testClient();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [built.bundle], env, stderr: "pipe" }));
  return { client, log };
}

describe("two stores of one operator confirming the identical send at the same moment", () => {
  it("both are sent (nothing can stop that); the later one's answer and audit record name it a duplicate of the earlier, made in the race", async () => {
    const [first, second] = [await serverProcess(), await serverProcess()];
    try {
      const recipient = (await accountNamed(built.emulator, DEMO.solCold)).address;
      const args = { account: DEMO.solTreasury, recipient, amount: "0.37", unit: "SOL" };
      const dryRuns = [await call(first.client, "create_transaction", args), await call(second.client, "create_transaction", args)];
      expect(dryRuns.map((dry) => dry.structured.status)).toEqual(["dry_run", "dry_run"]);
      // Each POST is held 1.5 s by the service: both last checks run before either transaction exists.
      await control(built.emulator, "PUT", "/faults", { latency_ms: 1500, methods: ["POST"], path_prefix: "/transactions", remaining: 2 });
      const confirmed = await Promise.all([
        call(first.client, "create_transaction", { ...args, confirmation_token: dryRuns[0]!.token }),
        call(second.client, "create_transaction", { ...args, confirmation_token: dryRuns[1]!.token }),
      ]);
      expect(confirmed.map((answer) => answer.structured.status)).toEqual(["submitted", "submitted"]);
      const ids = confirmed.map((answer) => (answer.structured.transaction as { id: number }).id);
      for (const reference of dryRuns.map((dry) => dry.structured.reference as string))
        expect(await transactionsWithLabel(built.emulator, reference)).toHaveLength(1);
      // The later transaction is the duplicate: when its POST is answered the earlier one exists, so its re-read always
      // finds it. The earlier one's re-read may run before the later one lands, and then has nothing to name.
      const later = ids.indexOf(Math.max(...ids));
      const [low, high] = [ids[1 - later]!, ids[later]!];
      expect(confirmed[later]!.structured.warning).toMatch(
        new RegExp(
          `^an identical write of operator ${DEMO.treasuryBot} was made from another store, process ` +
            `or machine at the same moment as this one \\(transaction ${low}, `,
        ),
      );
      expect(confirmed[later]!.text).toContain(
        `this one (transaction ${high}) duplicates transaction ${low}. Reject the duplicate if it still awaits approval`,
      );
      expect(confirmed[1 - later]!.structured.warning ?? `(transaction ${high}, `).toContain(`(transaction ${high}, `);
      const submitted = readFileSync([first, second][later]!.log, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; transaction_id?: number; details?: { raced_with?: number[] } })
        .find((record) => record.event === "submitted");
      expect(submitted).toMatchObject({ transaction_id: high, details: { raced_with: [low] } });
    } finally {
      await control(built.emulator, "PUT", "/faults", {});
      await Promise.all([first.client.close(), second.client.close()]);
    }
  }, 60_000);
});
