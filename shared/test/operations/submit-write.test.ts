import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSendRequest, certainlyNotApplied, CustodyClient, submitWrite, type PlannedWrite } from "../../src/index.js";
import { json, ScriptedServer } from "../client/scripted-server.js";
import { SOL, SOLANA_RECIPIENT } from "../requests/currency-fixtures.js";

const REFERENCE = "cw-00000000000000000abc";

/** A send as planWrite would have prepared it (only what submitWrite reads). */
function plannedSend(): PlannedWrite {
  const body = buildSendRequest({
    network: "Solana",
    account_name: "sol-treasury",
    recipient: SOLANA_RECIPIENT,
    amount: 1_000n,
    max_fees: 5_000n,
    speed: "NORMAL",
    currency: SOL,
    note: { title: "send", content: `[ref ${REFERENCE}]` },
  });
  return { kind: "send", operator: "alice_ops", account: { id: 1 }, call: { method: "POST", path: "/transactions", body }, correlation_id: REFERENCE } as unknown as PlannedWrite;
}

/** A stake deactivation, whose look-up needs a watermark read before the POST. */
function plannedDeactivation(): PlannedWrite {
  return { kind: "solana_deactivate_stake", operator: "alice_ops", account: { id: 1 }, stake: { uid: "s-1" }, call: { method: "POST", path: "", body: null }, correlation_id: REFERENCE } as unknown as PlannedWrite;
}

const errorBody = (status: number) => ({ name: "BadRequest", message: "recipient: refused", status_code: status });

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("what a failed submission says about the write", () => {
  let server: ScriptedServer;
  let client: CustodyClient;
  beforeEach(async () => {
    server = await ScriptedServer.start();
    client = new CustodyClient({ baseUrl: server.baseUrl, operator: "alice_ops", timeoutMs: 2000, retry: { retries: 0, baseDelayMs: 1 } });
  });
  afterEach(async () => {
    await server.close();
  });

  it("a POST refused with a definite error answer was not applied", async () => {
    server.on("POST", "/transactions", json(errorBody(400), 400));
    const error = await thrown(submitWrite(client, plannedSend()));
    expect(certainlyNotApplied(error)).toBe(true);
  });

  it("a POST that reached the service but lost its answer, whose look-up then fails, is uncertain, never a failure", async () => {
    server.on("POST", "/transactions", { kind: "drop" });
    server.on("GET", "/transactions", ...Array.from({ length: 10 }, () => json(errorBody(500), 500)));
    const outcome = await submitWrite(client, plannedSend());
    expect(outcome).toMatchObject({ status: "uncertain", candidates: [] });
    expect(outcome.status === "uncertain" && outcome.message).toMatch(/look-up for this write \(reference cw-0+abc\) failed .*it may have been applied\. Nothing was re-sent/);
    expect(server.received().filter((request) => request.method === "POST")).toHaveLength(1);
  });

  it("a failed read before the POST means nothing was sent", async () => {
    server.on("GET", "/transactions", json(errorBody(500), 500));
    const error = await thrown(submitWrite(client, plannedDeactivation()));
    expect(certainlyNotApplied(error)).toBe(true);
    expect((error as Error).message).toMatch(/GET \/transactions.*HTTP 500/);
    expect(server.received().filter((request) => request.method === "POST")).toEqual([]);
  });

  it("a POST to a server that is not there was not sent", async () => {
    await server.close();
    const error = await thrown(submitWrite(client, plannedSend()));
    expect(certainlyNotApplied(error)).toBe(true);
  });

  it("an error the client does not classify leaves the write possibly applied", () => {
    expect(certainlyNotApplied(new Error("socket hang up"))).toBe(false);
    expect(certainlyNotApplied(new TypeError("x is undefined"))).toBe(false);
  });
});
