import { Transaction, TransactionHistory } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { base58Decode } from "../src/hsm/base58.js";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { advance, expectStatus } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { OP_A, SOL, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

const DELAY = 60_000;
const DAY_MS = 86_400_000;

function send(account: string, amount: bigint, note = { title: "Test", content: "transition" }) {
  return {
    account_name: account,
    amount: amount.toString(),
    max_fees: "7500",
    recipient: externalSolana("recipient"),
    speed: "NORMAL",
    coin_fields: { type: "SEND" },
    note,
  };
}

describe("transaction status (spec: States and transitions, Transaction status)", () => {
  let w: Workspace;
  beforeEach(async () => {
    w = await standardWorkspace({ processingDelayMs: DELAY });
  });
  afterEach(async () => {
    await w.close();
  });

  async function history(id: number) {
    return decode(TransactionHistory, expectStatus(await w.api(OP_A).get(`/transactions/${id}/history`), 200));
  }

  it("(none) -> PENDING_APPROVAL when governance requires human approval, with a CREATE_TRANSACTION history entry", async () => {
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", send("sol-human", 2n * SOL)), 200));
    expect(created.status).toBe("PENDING_APPROVAL");
    const { history: requests } = await history(created.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.map((entry) => [entry.type, entry.status, entry.is_complete])).toEqual([["CREATE_TRANSACTION", "PENDING_APPROVAL", false]]);
    const entry = requests[0]?.[0];
    expect(Date.parse(entry?.expired_at ?? "") - Date.parse(created.created_on)).toBe(7 * DAY_MS);
  });

  it("(none) -> APPROVED when API operators alone satisfy governance", async () => {
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", send("sol-auto", 2n * SOL)), 200));
    expect(created.status).toBe("APPROVED");
    const again = decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`));
    expect(again.status).toBe("APPROVED");
    expect(again.fees).toBeNull();
    expect(again.tx_hash).toBeNull();
  });

  it("PENDING_APPROVAL -> APPROVED once the required approvers approve (human through the control plane)", async () => {
    const created = decode(Transaction, await w.api(OP_A).post("/transactions", send("sol-human", 2n * SOL)));
    const approved = decode(Transaction, expectStatus(await w.control.post(`/transactions/${created.id}/approve`, { username: "dana.approver" }), 200));
    expect(approved.status).toBe("APPROVED");
    const { history: requests } = await history(created.id);
    expect(requests[0]?.map((entry) => entry.status)).toEqual(["PENDING_APPROVAL", "APPROVED"]);
  });

  it("APPROVED -> SIGNED by the HSM after the processing delay; the hash is not shown before broadcast", async () => {
    const created = decode(Transaction, await w.api(OP_A).post("/transactions", send("sol-auto", 2n * SOL)));
    await advance(w, { ms: DELAY });
    const signed = decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`));
    expect(signed.status).toBe("SIGNED");
    expect(signed.tx_hash).toBeNull();
    expect(signed.broadcast_on).toBeNull();
    const { history: requests } = await history(created.id);
    expect(requests[0]?.map((entry) => entry.status)).toEqual(["APPROVED", "SIGNED"]);
  });

  it("SIGNED -> SUBMITTED on broadcast: broadcast_on, fees and tx_hash are filled in; amount and fees leave the account", async () => {
    const before = obj(await w.api(OP_A).get(`/accounts/${w.ids["sol-auto"]}`));
    const created = decode(Transaction, await w.api(OP_A).post("/transactions", send("sol-auto", 2n * SOL)));
    await advance(w, { ms: DELAY });
    await advance(w, { ms: DELAY });
    const submitted = decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`));
    expect(submitted.status).toBe("SUBMITTED");
    expect(submitted.fees).toBe(5000n);
    expect(submitted.broadcast_on).not.toBeNull();
    expect(base58Decode(submitted.tx_hash ?? "")?.length).toBe(64);
    expect(submitted.min_confirmations).toBe(10);
    const after = obj(await w.api(OP_A).get(`/accounts/${w.ids["sol-auto"]}`));
    expect(BigInt(before.balance as string) - BigInt(after.balance as string)).toBe(2n * SOL + 5000n);
    const { history: requests } = await history(created.id);
    expect(requests[0]?.map((entry) => entry.status)).toEqual(["APPROVED", "SIGNED", "SUBMITTED"]);
    expect(new Set(requests[0]?.map((entry) => entry.expired_at)).size).toBe(1);
  });

  it("PENDING_APPROVAL -> REJECTED when a human approver rejects; the held funds are released", async () => {
    const created = decode(Transaction, await w.api(OP_A).post("/transactions", send("sol-human", 2n * SOL)));
    const held = obj(await w.api(OP_A).get(`/accounts/${w.ids["sol-human"]}`));
    expect(BigInt(held.available_balance as string)).toBe(98n * SOL - 7500n);
    const rejected = decode(Transaction, expectStatus(await w.control.post(`/transactions/${created.id}/reject`, { username: "erin.approver" }), 200));
    expect(rejected.status).toBe("REJECTED");
    const after = obj(await w.api(OP_A).get(`/accounts/${w.ids["sol-human"]}`));
    expect(after.available_balance).toBe((100n * SOL).toString());
  });

  it("PENDING_APPROVAL -> EXPIRED 7 days after creation without quorum", async () => {
    const created = decode(Transaction, await w.api(OP_A).post("/transactions", send("sol-human", 2n * SOL)));
    await advance(w, { ms: 7 * DAY_MS - 1000 });
    expect(decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`)).status).toBe("PENDING_APPROVAL");
    await advance(w, { ms: 1000 });
    expect(decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`)).status).toBe("EXPIRED");
    const late = await w.control.post(`/transactions/${created.id}/approve`, { username: "dana.approver" });
    expect(late.status).toBe(409);
  });
});
