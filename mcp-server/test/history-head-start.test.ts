import { join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { CustodyClient, DEFAULT_POLICY, FileGuardStore, WriteRoad } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO } from "./harness/demo-workspace.js";
import { startTestEmulator } from "./harness/mcp-harness.js";
import { tempDir } from "./harness/temp-dirs.js";

// Issue 18, the history read's cost: a dry run whose account the name directory already knows starts
// the read of the account's window before the account's own GET returns, so the two run side by side.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
});
afterAll(async () => {
  await emulator?.close();
});

/** How long the account's GET waits for the history read to begin before it goes on regardless (the failing case). */
const HEAD_START_DEADLINE_MS = 2_000;

describe("a dry run of an account the name directory knows", () => {
  it("starts the read of the account's window before its account GET is answered", async () => {
    const account = await accountNamed(emulator, DEMO.solTreasury);
    const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
    const order: string[] = [];
    let holding = false;
    let historyStarted: () => void = () => {};
    const historyRead = new Promise<void>((resolve) => (historyStarted = resolve));
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const what = url.pathname.endsWith(`/accounts/${account.id}`)
        ? "account"
        : url.pathname.endsWith("/transactions") && url.searchParams.get("account_id") === String(account.id)
          ? "history"
          : null;
      if (holding && what !== null) order.push(what);
      if (holding && what === "history") historyStarted();
      // The account's GET is held until the history read has begun, or the deadline passes (the read started only after the account).
      if (holding && what === "account") await Promise.race([historyRead, new Promise((resolve) => setTimeout(resolve, HEAD_START_DEADLINE_MS))]);
      return fetch(input, init);
    };
    const client = new CustodyClient({ baseUrl: emulator.baseUrl, operator: DEMO.treasuryBot, fetch: recording });
    const road = new WriteRoad({
      client,
      operator: DEMO.treasuryBot,
      policy: () => DEFAULT_POLICY,
      store: new FileGuardStore(join(tempDir("head-start-"), "audit.jsonl")),
      surface: "test",
    });
    const request = { kind: "send" as const, account: DEMO.solTreasury, recipient, amount: 777n, speed: "NORMAL" as const };
    const call = { actor: { session: "test", person: null } };
    // The first dry run lists the accounts: the directory then knows the name.
    expect((await road.prepare(request, call)).status).toBe("prepared");
    holding = true;
    expect((await road.prepare({ ...request, amount: 778n }, call)).status).toBe("prepared");
    expect(order.slice(0, 2)).toEqual(["history", "account"]);
  });
});
