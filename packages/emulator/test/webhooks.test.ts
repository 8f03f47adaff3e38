import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SIGNATURE_HEADER, verifyWebhookSignature } from "../src/index.js";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { expectStatus, governance, operatorsRule } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { OP_A, standardWorkspace, type Workspace } from "./support/standard-workspace.js";

const SECRET = "whsec_0123456789abcdef";

interface Received {
  at: number;
  body: string;
  signature: string;
}

function receiver(failFirst: number): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  let failures = failFirst;
  const server = createServer((request: IncomingMessage, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      received.push({ at: Date.now(), body, signature: String(request.headers[SIGNATURE_HEADER] ?? "") });
      response.statusCode = failures > 0 ? 500 : 204;
      failures -= 1;
      response.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received })),
  );
}

const until = async (condition: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("webhooks (spec: Events)", () => {
  let w: Workspace;
  let hook: Awaited<ReturnType<typeof receiver>> | undefined;
  beforeEach(async () => {
    w = await standardWorkspace({ webhookRetryBaseMs: 50, webhookMaxAttempts: 4 });
  });
  afterEach(async () => {
    await w.close();
    hook?.server.close();
  });

  it("a transaction broadcast is delivered, signed with HMAC-SHA256 over timestamp and body (t=...,v1=...)", async () => {
    hook = await receiver(0);
    expectStatus(await w.control.put("/webhook", { url: hook.url, secret: SECRET, events: ["TRANSACTION_BROADCAST"] }), 200);
    const created = obj(
      await w.api(OP_A).post("/transactions", { account_name: "sol-auto", amount: "1000", max_fees: "7500", recipient: externalSolana("w"), speed: "NORMAL" }),
    );
    await w.api(OP_A).get(`/transactions/${String(created.id)}`);
    await until(() => hook !== undefined && hook.received.length > 0);
    const delivery = hook.received[0];
    expect(delivery?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(delivery?.signature ?? "", SECRET, delivery?.body ?? "")).toBe(true);
    expect(verifyWebhookSignature(delivery?.signature ?? "", "another-secret-value", delivery?.body ?? "")).toBe(false);
    const payload = JSON.parse(delivery?.body ?? "{}") as { kind: string; data: Record<string, unknown> };
    expect(payload.kind).toBe("TRANSACTION_BROADCAST");
    expect(payload.data).toMatchObject({ transaction_id: created.id, status: "SUBMITTED", fees: "5000" });
  });

  it("workspace-management events are delivered: an account's governance and whitelist edit", async () => {
    hook = await receiver(0);
    await w.control.put("/webhook", { url: hook.url, secret: SECRET });
    await w.control.put(
      `/accounts/${w.ids["eth-auto"]}/governance`,
      governance(operatorsRule(OP_A), { smart_contract: { ...operatorsRule(OP_A), whitelist: [] } }),
    );
    await until(() => (hook?.received.length ?? 0) >= 2);
    expect(hook.received.map((item) => (JSON.parse(item.body) as { kind: string }).kind).sort()).toEqual(["EDIT_ACCOUNT", "EDIT_WHITELIST"]);
  });

  it("a failed delivery is retried with doubling back-off", async () => {
    hook = await receiver(2);
    await w.control.put("/webhook", { url: hook.url, secret: SECRET, events: ["SUSPEND_USER"] });
    await w.control.post(`/users/${OP_A}/suspend`);
    await until(() => (hook?.received.length ?? 0) >= 3);
    const [first, second, third] = hook.received;
    expect(hook.received).toHaveLength(3);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(45);
    expect((third?.at ?? 0) - (second?.at ?? 0)).toBeGreaterThanOrEqual(95);
    const deliveries = (await w.control.get("/webhook/deliveries")).body as { status: string; attempts: number }[];
    expect(deliveries.at(-1)).toMatchObject({ status: "delivered", attempts: 3 });
  });

  it("the subscription never shows its secret back", async () => {
    await w.control.put("/webhook", { url: "http://127.0.0.1:9/hook", secret: SECRET });
    const view = await w.control.get("/webhook");
    expect(view.text.includes(SECRET)).toBe(false);
    expect(obj(view)).toMatchObject({ subscribed: true, url: "http://127.0.0.1:9/hook" });
  });
});
