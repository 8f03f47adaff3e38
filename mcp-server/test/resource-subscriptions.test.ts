import { join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { ProtocolError, ProtocolErrorCode, StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessChanges, type ResourceChanges } from "../src/subscriptions/resource-changes.js";
import { MAX_SUBSCRIBED_URI, MAX_SUBSCRIPTIONS_PER_STREAM } from "../src/subscriptions/subscription-limits.js";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient } from "./harness/demo-workspace.js";
import { buildBundle } from "./harness/built-bundle.js";
import { dryRunAndConfirm } from "./harness/guarded-write.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";
import { startTestEmulator, testClient, testContext } from "./harness/mcp-harness.js";
import { modernClient } from "./harness/modern-client.js";
import { resourceUpdatesOf } from "../../test/support/resource-updates.js";

// Subscriptions to the account and transaction resources: resources/subscribe on a 2025-11-25
// session and subscriptions/listen on 2026-07-28, notified when the poller sees a transaction's
// status change in the emulator (a human approves it on the control plane), and when a write the
// server sends changes them.

const TOKEN = "test-bearer-token-subscriptions";
const HTTP_OPTIONS = { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null };
let emulator: RunningEmulator;
let changes: ResourceChanges;
let http: RunningHttpServer;

beforeAll(async () => {
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
  const { ctx } = testContext(emulator);
  changes = inProcessChanges(ctx, { log: () => {}, intervalMs: 50 });
  http = await startHttpServer(ctx, HTTP_OPTIONS, () => {}, changes);
}, 60_000);
afterAll(async () => {
  await http?.close();
  await changes?.close();
  await emulator?.close();
});

const transport = () => new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });

/** treasury-bot's send from sol-cold, whose rule waits for a human approver: PENDING_APPROVAL until one decides. */
async function pendingTransaction(amount: string): Promise<number> {
  const to = await accountNamed(emulator, DEMO.solTreasury);
  const created = await directClient(emulator).createTransaction({
    account_name: DEMO.solCold,
    amount,
    max_fees: "7500",
    recipient: to.address,
    speed: "NORMAL",
  });
  expect(created.status).toBe("PENDING_APPROVAL");
  return created.id;
}

/** A 2026-07-28 client's listen stream on a pending transaction hears of its rejection on the control plane. */
async function expectListenHearsRejection(client: Client, amount: string): Promise<void> {
  const updates = resourceUpdatesOf(client);
  const id = await pendingTransaction(amount);
  const uri = `custody://transactions/${id}`;
  const subscription = await client.listen({ resourceSubscriptions: [uri] });
  expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
  const notified = updates.next(uri);
  await control(emulator, "POST", `/transactions/${id}/reject`, { username: "dana.approver" });
  await notified;
  await subscription.close();
}

describe("a 2025-11-25 session's resources/subscribe", () => {
  it("advertises resources.subscribe, notifies when the transaction's status changes, and stops after resources/unsubscribe", async () => {
    const client = testClient();
    await client.connect(transport());
    try {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      const updates = resourceUpdatesOf(client);
      const approved = await pendingTransaction("1000");
      const uri = `custody://transactions/${approved}`;
      await client.subscribeResource({ uri });
      const notified = updates.next(uri);
      await control(emulator, "POST", `/transactions/${approved}/approve`, { username: "dana.approver" });
      await notified;
      await client.unsubscribeResource({ uri });
      const rejected = await pendingTransaction("2000");
      const other = `custody://transactions/${rejected}`;
      await client.subscribeResource({ uri: other });
      const otherNotified = updates.next(other);
      await control(emulator, "POST", `/transactions/${rejected}/reject`, { username: "dana.approver" });
      await otherNotified;
      // A change of the first one now is not sent (it was unsubscribed); the other's, published after it, is.
      const before = updates.uris.filter((one) => one === uri).length;
      const after = updates.next(other);
      changes.bus.publish(uri);
      changes.bus.publish(other);
      await after;
      expect(updates.uris.filter((one) => one === uri)).toHaveLength(before);
    } finally {
      await client.close();
    }
  });

  it("refuses more subscriptions than a session may hold, and a URI too long, naming the limit", async () => {
    const client = testClient();
    await client.connect(transport());
    try {
      for (let index = 1; index <= MAX_SUBSCRIPTIONS_PER_STREAM; index += 1) await client.subscribeResource({ uri: `custody://accounts/${index}` });
      await expect(client.subscribeResource({ uri: "custody://accounts/999" })).rejects.toThrow(
        /Too many subscriptions: 51 resources, more than the 50 one session or listen stream may be subscribed to at once/,
      );
      await expect(client.subscribeResource({ uri: `custody://${"a".repeat(600)}` })).rejects.toThrow(/uri: at most 512 characters, got 610/);
    } finally {
      await client.close();
    }
  });
});

describe("a 2026-07-28 client's subscriptions/listen", () => {
  it("acknowledges the resources, and notifies when a transaction's status changes", async () => {
    const client = modernClient();
    await client.connect(transport());
    try {
      expect(client.getDiscoverResult()?.capabilities.resources?.subscribe).toBe(true);
      await expectListenHearsRejection(client, "3000");
    } finally {
      await client.close();
    }
  });

  // Each refusal reaches the SDK's client as the protocol error it is (-32602), not as a failed HTTP exchange.
  it.each([
    [
      "more resources than one may hold",
      Array.from({ length: MAX_SUBSCRIPTIONS_PER_STREAM + 1 }, (_, index) => `custody://accounts/${index + 1}`),
      /resourceSubscriptions: Too many subscriptions: 51 resources, more than the 50 /,
    ],
    ["a URI longer than any of ours", [`custody://accounts/${"9".repeat(MAX_SUBSCRIBED_URI)}`], /resourceSubscriptions: uri: at most 512 characters, got 531/],
  ])("refuses a stream naming %s, as invalid params", async (_what, uris, message) => {
    const client = modernClient();
    await client.connect(transport());
    try {
      const refused = await client.listen({ resourceSubscriptions: uris }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ProtocolError);
      expect(refused).toMatchObject({ code: ProtocolErrorCode.InvalidParams, message: expect.stringMatching(message) });
    } finally {
      await client.close();
    }
  });
});

describe("on a server that reads watched resources again only once an hour", () => {
  let quietChanges: ResourceChanges;
  let quiet: RunningHttpServer;
  beforeAll(async () => {
    const { ctx } = testContext(emulator);
    quietChanges = inProcessChanges(ctx, { log: () => {}, intervalMs: 3_600_000 });
    quiet = await startHttpServer(ctx, HTTP_OPTIONS, () => {}, quietChanges);
  });
  afterAll(async () => {
    await quiet?.close();
    await quietChanges?.close();
  });
  const quietTransport = () => new StreamableHTTPClientTransport(new URL(quiet.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });

  it("a write the server sends notifies the subscribers of its account at once", async () => {
    const [subscriber, writer] = [testClient(), testClient()];
    await subscriber.connect(quietTransport());
    await writer.connect(quietTransport());
    try {
      const treasury = await accountNamed(emulator, DEMO.solTreasury);
      const uri = `custody://accounts/${treasury.id}`;
      const updates = resourceUpdatesOf(subscriber);
      await subscriber.subscribeResource({ uri });
      const notified = updates.next(uri);
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      const { confirmed } = await dryRunAndConfirm(writer, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "0.0123", unit: "SOL" });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      await notified;
    } finally {
      await subscriber.close();
      await writer.close();
    }
  });

  it("ends a listen stream with its empty result as soon as the server drains, before the calls under way are answered", async () => {
    const [client, caller] = [modernClient(), testClient()];
    await client.connect(quietTransport());
    await caller.connect(quietTransport());
    try {
      const subscription = await client.listen({ resourceSubscriptions: ["custody://transactions/1"] });
      await control(emulator, "PUT", "/faults", { latency_ms: 1500, methods: ["GET"], path_prefix: "/transactions/1", remaining: 1 });
      const slow = caller.callTool({ name: "get_transaction", arguments: { transaction_id: 1 } });
      for (let waited = 0; quiet.pending === 0; waited += 5) {
        if (waited > 5000) throw new Error("the slow call never got under way");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const left = quiet.shutdown(10_000);
      const first = await Promise.race([subscription.closed.then((how) => `stream ${how}`), slow.then(() => "call answered")]);
      expect(first).toBe("stream graceful");
      await slow;
      expect(await left).toBe(0);
    } finally {
      await control(emulator, "DELETE", "/faults");
      await client.close();
      await caller.close();
    }
  });
});

describe("a 2026-07-28 client over stdio (the bundle)", () => {
  it("listens: notified when the transaction's status changes, and the server stops at once with the stream open", async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      ...childHome(),
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
      CUSTODY_MCP_WATCH_INTERVAL_SECONDS: "1",
    };
    const stdio = new StdioClientTransport({ command: process.execPath, args: [buildBundle()], env, stderr: "pipe" });
    const client = modernClient();
    await client.connect(stdio);
    try {
      await expectListenHearsRejection(client, "4000");
      const tooMany = Array.from({ length: MAX_SUBSCRIPTIONS_PER_STREAM + 1 }, (_, index) => `custody://accounts/${index + 1}`);
      await expect(client.listen({ resourceSubscriptions: tooMany })).rejects.toThrow(
        /resourceSubscriptions: Too many subscriptions: 51 resources, more than the 50 /,
      );
    } finally {
      // The open stream is no answer the shutdown waits for: the server ends well within its grace.
      const exited = new Promise<void>((resolve) => (stdio.onclose = () => resolve()));
      const closing = Date.now();
      await client.close();
      await exited;
      expect(Date.now() - closing).toBeLessThan(3000);
    }
  }, 60_000);
});
