import { describe, expect, it } from "vitest";
import { readableResources } from "../src/resources/register-resources.js";
import { inProcessChanges } from "../src/subscriptions/resource-changes.js";
import { StreamWatches } from "../src/subscriptions/stream-watches.js";
import { MAX_SUBSCRIPTIONS_PER_STREAM } from "../src/subscriptions/subscription-limits.js";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO } from "./harness/demo-workspace.js";
import { demoHarness } from "./harness/mcp-harness.js";

// The one admission of a stream's subscriptions (a 2025 session's, a 2026-07-28 listen stream's),
// over the real poller on the emulator: all or none, within the stream's and the process's limits.

const demo = demoHarness();
const accounts = (...ids: number[]) => ids.map((id) => `custody://accounts/${id}`);

describe("a stream's subscriptions", () => {
  it("takes all the resources asked for or none: a stream the process cannot watch in full gives its places back", async () => {
    const changes = inProcessChanges(demo.harness.ctx, { log: () => {}, maxWatched: 3 });
    const readable = readableResources(demo.harness.ctx.policy, null);
    try {
      const first = new StreamWatches(changes, readable);
      const added = first.add(accounts(1, 2, 2));
      expect("ready" in added).toBe(true);
      if ("ready" in added) await added.ready;
      expect(first.size).toBe(2);
      const second = new StreamWatches(changes, readable);
      expect(second.add(accounts(3, 4))).toEqual({ refused: { reason: "watched" } });
      expect(second.size).toBe(0);
      // The place the refused stream took for a moment is free again.
      const third = new StreamWatches(changes, readable);
      expect("ready" in third.add(accounts(5))).toBe(true);
      first.releaseAll();
      expect("ready" in second.add(accounts(3, 4))).toBe(true);
      second.releaseAll();
      third.releaseAll();
    } finally {
      await changes.close();
    }
  });

  it("refuses more than a stream may hold, and a resource the person may not read, subscribing to nothing", async () => {
    const changes = inProcessChanges(demo.harness.ctx, { log: () => {} });
    try {
      const stream = new StreamWatches(changes, readableResources(demo.harness.ctx.policy, null));
      const ids = Array.from({ length: MAX_SUBSCRIPTIONS_PER_STREAM + 1 }, (_, index) => index + 1);
      expect(stream.add(accounts(...ids))).toEqual({ refused: { reason: "per_stream" } });
      expect(stream.add([`custody://accounts/${"9".repeat(600)}`])).toMatchObject({
        refused: { reason: "invalid_uri", message: expect.stringMatching(/^uri: at most/) },
      });
      expect(stream.size).toBe(0);
      expect("ready" in stream.add(accounts(...ids.slice(1)))).toBe(true);
      expect(stream.add(accounts(1))).toEqual({ refused: { reason: "per_stream" } });
      // One already held is no more.
      expect("ready" in stream.add(accounts(2))).toBe(true);
      stream.releaseAll();
    } finally {
      await changes.close();
    }
  });

  it("logs a resource it cannot read once while it cannot, not at every pass (an account that does not exist, watched until unsubscribed)", async () => {
    const lines: string[] = [];
    const changes = inProcessChanges(demo.harness.ctx, { log: (line) => lines.push(line), intervalMs: 20 });
    const stream = new StreamWatches(changes, readableResources(demo.harness.ctx.policy, null));
    try {
      const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
      const [missing, watched] = accounts(99_999, treasury.id);
      const added = stream.add([missing ?? "", watched ?? ""]);
      if ("ready" in added) await added.ready;
      // Each pass reads the missing account again, then the treasury: each deposit seen is a pass gone by.
      for (let deposit = 0; deposit < 3; deposit += 1) {
        const seen = new Promise<void>((resolve) => {
          const stop = changes.bus.subscribe((uri) => {
            if (uri !== watched) return;
            stop();
            resolve();
          });
        });
        await control(demo.emulator, "POST", `/accounts/${treasury.id}/deposit`, { amount: "1" });
        await seen;
      }
      expect(lines.filter((line) => line.includes(`${missing}:`))).toEqual([expect.stringContaining("answered HTTP 404")]);
    } finally {
      stream.releaseAll();
      await changes.close();
    }
  });
});
