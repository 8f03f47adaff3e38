import { describe, expect, it } from "vitest";
import { DurableStorage } from "../src/store/durable-storage.js";
import { emptyTables } from "../src/store/state-types.js";
import { tempDir } from "./support/temp-dir.js";

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not resolve within ${ms} ms`)), ms))]);
}

describe("the journal writer", () => {
  it("writes a change set appended by a caller that the previous write just resumed", async () => {
    // The scheduler commits again as soon as a commit is durable; that append used to land in the
    // queue after the writer had found it empty but before it said it had stopped: never written.
    const dir = tempDir();
    try {
      const state = { seq: 0, tables: emptyTables() };
      const storage = await DurableStorage.start(dir.path, () => state);
      let seq = 0;
      const chained = async (depth: number): Promise<void> => {
        await storage.append({ seq: ++seq, changes: [["meta", "meta", { depth }]] });
        if (depth > 0) await chained(depth - 1);
      };
      await within(chained(20), 5_000, "a chain of appends, each made when the previous was durable");
      await storage.close();
      const loaded = DurableStorage.load(dir.path);
      expect(loaded.seq).toBe(21);
      expect(loaded.tables.meta.get("meta")).toEqual({ depth: 0 });
    } finally {
      dir.remove();
    }
  });
});
