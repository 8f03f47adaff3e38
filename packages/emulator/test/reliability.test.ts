import { networkInterfaces } from "node:os";
import { ErrorBody } from "@custody/shared";
import { afterEach, describe, expect, it } from "vitest";
import { expectStatus, registerOperator, startHarness, type Harness } from "./support/harness.js";
import { HttpCaller } from "./support/http-client.js";
import { decode } from "./support/wire.js";

describe("rate limiting, injected faults and the loopback-only control plane", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("answers 420 with Retry-After past the per-operator rate limit", async () => {
    // The bucket is the operator's, full when it first calls: registering it takes two of its three tokens.
    h = await startHarness({ rateLimit: { requestsPerSecond: 3 } });
    await registerOperator(h, "op");
    const answers = [];
    for (let index = 0; index < 6; index += 1) answers.push(await h.api("op").get("/accounts"));
    const limited = answers.find((answer) => answer.status === 420);
    expect(limited).toBeDefined();
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    if (!limited) throw new Error("no call was rate limited");
    expect(decode(ErrorBody, limited)).toMatchObject({ name: "RateLimited", status_code: 420 });
  });

  it("injects errors, 420s, latency and dropped connections on service calls only, for as many calls as asked", async () => {
    h = await startHarness();
    await registerOperator(h, "op");
    expectStatus(await h.control.put("/faults", { error_rate: 1, error_status: 503, remaining: 2 }), 200);
    expect((await h.api("op").get("/accounts")).status).toBe(503);
    expect((await h.control.get("/faults")).status).toBe(200);
    expect((await h.api("op").get("/accounts")).status).toBe(503);
    expect((await h.api("op").get("/accounts")).status).toBe(200);

    await h.control.put("/faults", { rate_limit_rate: 1, retry_after_seconds: 7, remaining: 1 });
    const limited = await h.api("op").get("/accounts");
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([420, "7"]);

    await h.control.put("/faults", { latency_ms: 150, remaining: 1 });
    const started = Date.now();
    expect((await h.api("op").get("/accounts")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    await h.control.put("/faults", { drop_rate: 1, remaining: 1 });
    await expect(h.api("op").get("/accounts")).rejects.toThrow();
    expect((await h.api("op").get("/accounts")).status).toBe(200);
    expectStatus(await h.control.delete("/faults"), 200);
  });

  it("drop_after handles the call, then drops the answer: the outcome is ambiguous but applied", async () => {
    h = await startHarness();
    await registerOperator(h, "op");
    await h.control.put("/faults", { drop_after_rate: 1, methods: ["POST"], remaining: 1 });
    await expect(
      h.control.post("/accounts", {
        name: "x",
        currency: "polkadot",
        governance: { transaction: { creators: [], steps: [] }, staking: null, smart_contract: null },
      }),
    ).resolves.toBeDefined();
    await expect(h.api("op").post("/api_users", { name: "late" })).rejects.toThrow();
    expect((await h.api("op").post("/api_users", { name: "late" })).status).toBe(409);
  });

  it("refuses the control plane to a caller that is not on this machine", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((item) => item && item.family === "IPv4" && !item.internal);
    if (!external) return;
    h = await startHarness({ host: "0.0.0.0" });
    const port = new URL(h.emulator.controlUrl).port;
    const remote = new HttpCaller(`http://${external.address}:${port}/_control`);
    const answer = await remote.get("/clock");
    expect(answer.status).toBe(403);
    expect(decode(ErrorBody, answer).name).toBe("ControlPlaneLoopbackOnly");
    expect((await h.control.get("/clock")).status).toBe(200);
  });
});
