import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DueQueue, type Due, type DueKind } from "../src/domain/due-queue.js";

/** The earliest current step by a full scan: what the scheduler used to do after every commit. */
function scanEarliest(current: Map<number, Due>): Due | undefined {
  let earliest: Due | undefined;
  for (const due of current.values()) {
    if (!earliest || due.at < earliest.at || (due.at === earliest.at && due.transactionId < earliest.transactionId)) earliest = due;
  }
  return earliest;
}

const kinds: DueKind[] = ["sign", "broadcast", "expire"];
const operation = fc.record({
  id: fc.integer({ min: 1, max: 40 }),
  at: fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined }),
  kind: fc.constantFrom(...kinds),
});

describe("the scheduler's due queue", () => {
  it("always gives the earliest current step (ties: lowest transaction id), as a full scan would", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 400 }), (operations) => {
        const queue = new DueQueue();
        const model = new Map<number, Due>();
        for (const { id, at, kind } of operations) {
          const due = at === undefined ? undefined : { at, kind, transactionId: id };
          queue.set(id, due);
          if (due) model.set(id, due);
          else model.delete(id);
          expect(queue.peek()).toEqual(scanEarliest(model));
          expect(queue.size).toBe(model.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the earliest step right when every step is replaced many times (stale entries are swept)", () => {
    const queue = new DueQueue();
    for (let round = 0; round < 50; round += 1) for (let id = 1; id <= 1_000; id += 1) queue.set(id, { at: round * 10 + id, kind: "sign", transactionId: id });
    expect(queue.size).toBe(1_000);
    expect(queue.peek()).toEqual({ at: 491, kind: "sign", transactionId: 1 });
  });
});
