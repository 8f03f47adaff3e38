import { describe, expect, it, vi } from "vitest";
import { SessionTable } from "../src/transport/session-table.js";

describe("the session table", () => {
  it("counts the sessions being opened against the cap, so concurrent initializes cannot pass it together", () => {
    const table = new SessionTable<string>({ max: 2, idleMs: 60_000 }, () => {});
    expect(table.reserve()).toBe(true);
    expect(table.reserve()).toBe(true);
    expect(table.reserve()).toBe(false);
    table.release();
    table.add("a", "session a");
    expect(table.reserve()).toBe(false);
    table.release();
    expect(table.size).toBe(1);
    expect(table.reserve()).toBe(true);
  });

  it("hands a session to expire only once no request of it has been open for the idle time", async () => {
    // The table's idle timer, moved by hand: the idle time passes exactly, whatever the machine's load.
    vi.useFakeTimers();
    try {
      const expired: string[] = [];
      const table = new SessionTable<string>({ max: 5, idleMs: 50 }, (session) => expired.push(session));
      table.add("a", "session a");
      const done = table.use("a");
      await vi.advanceTimersByTimeAsync(120);
      expect(expired).toEqual([]);
      done();
      done();
      await vi.advanceTimersByTimeAsync(49);
      expect(expired).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(expired).toEqual(["session a"]);
      table.delete("a");
      expect([table.size, table.get("a")]).toEqual([0, undefined]);
    } finally {
      vi.useRealTimers();
    }
  });
});
