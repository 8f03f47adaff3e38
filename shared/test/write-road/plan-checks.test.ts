import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CustodyClient } from "../../src/client/custody-client.js";
import type { AccountWire } from "../../src/schemas/account.js";
import { nameStillBound, PLAN_CHECKS, sameDigest, sameTarget, type PlannedAgain } from "../../src/write-road/plan-checks.js";
import { firstRefusal } from "../../src/write-road/road-check.js";
import { json, ScriptedServer } from "../client/scripted-server.js";
import { SOLANA_RECIPIENT } from "../currency-fixtures.js";
import { plannedSend, sealedFor, solanaAccount } from "./planned-write-fixture.js";

// The checks a confirmation's fresh plan must pass before its findings are looked at. The name
// check reads the service's accounts: a scripted service on loopback plays them.

function listed(id: number, name: string): AccountWire {
  return {
    id,
    name,
    address: SOLANA_RECIPIENT,
    balance: "10",
    available_balance: "10",
    currency: "solana_testnet",
    type: "Solana",
    coin_fields: { type: "Solana" },
  };
}
const page = (accounts: AccountWire[]) =>
  json({ edges: accounts.map((node, cursor) => ({ cursor, node })), page_info: { count: accounts.length, has_next_page: false } });

let server: ScriptedServer;
let client: CustodyClient;
beforeEach(async () => {
  server = await ScriptedServer.start();
  client = new CustodyClient({ baseUrl: server.baseUrl, operator: "treasury-bot", retry: { retries: 0 } });
});
afterEach(async () => {
  await server.close();
});

const plan = plannedSend();
const again = (over: Partial<PlannedAgain> = {}): PlannedAgain => ({ plan, sealed: sealedFor(plan), stage: "confirm", client, ...over });

describe("sameTarget", () => {
  it("holds while the plan targets the dry run's account and transaction", () => {
    expect(sameTarget(again())).toBeNull();
  });

  it("refuses another account, naming both", () => {
    const moved = plannedSend({ account: solanaAccount(8, "ops") });
    expect(sameTarget(again({ plan: moved }))).toMatchObject({
      reason: "binding_changed",
      message: expect.stringMatching(/^the dry run was for account 7, but this confirmation names account 8 \(ops\)/),
    });
  });

  it("refuses another transaction of the same account", () => {
    const refusal = sameTarget(again({ sealed: sealedFor(plan, { transaction_id: 3 }) }));
    expect(refusal?.message).toMatch(/^the dry run was for account 7 and transaction 3, but/);
  });
});

describe("nameStillBound", () => {
  it("is not read before the last check", async () => {
    expect(await nameStillBound(again())).toBeNull();
    expect(server.received()).toEqual([]);
  });

  it("holds when the name belongs to the account the person saw alone", async () => {
    server.on("GET", "/accounts", page([listed(7, "ops"), listed(9, "vault")]));
    expect(await nameStillBound(again({ stage: "send_check" }))).toBeNull();
  });

  it("refuses when a second account took the name, or none has it", async () => {
    server.on("GET", "/accounts", page([listed(7, "ops"), listed(9, "ops")]), page([listed(7, "treasury")]));
    expect(await nameStillBound(again({ stage: "send_check" }))).toMatchObject({
      reason: "binding_changed",
      message: expect.stringContaining("that name now belongs to accounts 7, 9, not to account 7 alone"),
    });
    expect((await nameStillBound(again({ stage: "send_check" })))?.message).toContain("that name now belongs to no account");
  });

  it("has nothing to check for a body that names no account", async () => {
    const byTransaction = plannedSend({ call: { method: "POST", path: "/transactions/3/approve", body: { amount: 1n } } });
    expect(await nameStillBound(again({ plan: byTransaction, stage: "send_check" }))).toBeNull();
    expect(server.received()).toEqual([]);
  });
});

describe("sameDigest", () => {
  it("holds for the plan the person saw, and names the fields that differ", () => {
    expect(sameDigest(again())).toBeNull();
    const more = plannedSend({ call: { ...plan.call, body: { account_name: "ops", amount: 2_000_000n, recipient: SOLANA_RECIPIENT } } });
    const sealed = sealedFor(plan, { fields: { amount: "0".repeat(16), account_name: "0".repeat(16) } });
    expect(sameDigest(again({ plan: more, sealed }))).toMatchObject({
      reason: "digest_mismatch",
      message: expect.stringMatching(/^the request differs from the dry run in /),
    });
    expect(sameDigest(again({ plan: more }))?.message).toMatch(/^the request differs from the dry run \(the arguments/);
  });
});

describe("PLAN_CHECKS", () => {
  it("looks at the account first, the digest last", async () => {
    const elsewhere = plannedSend({ account: solanaAccount(8, "ops"), amounts: {}, call: { ...plan.call, body: null } });
    expect((await firstRefusal(PLAN_CHECKS, again({ plan: elsewhere })))?.reason).toBe("binding_changed");
    expect((await firstRefusal(PLAN_CHECKS, again({ plan: plannedSend({ call: { ...plan.call, body: null } }) })))?.reason).toBe("digest_mismatch");
    expect(await firstRefusal(PLAN_CHECKS, again())).toBeNull();
  });
});
