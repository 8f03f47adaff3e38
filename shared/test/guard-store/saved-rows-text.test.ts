import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SavedRowsText, type SavedRow } from "../../src/index.js";

/** Keys as hostile as a service's transaction type can make them: quotes, backslashes, commas, brackets, escapes, any unit. */
const hostileKey = fc.oneof(
  fc.string({ unit: fc.constantFrom('"', "\\", ",", "[", "]", "a", "1", " ", "\n", "\u2028", "\ud800", "u"), minLength: 1, maxLength: 12 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
  fc.constantFrom("SEND 7", "SEND 77", "SEND 7\\", 'SEND 7"', "SEND 7,"),
);

/** Rows newest first, ids falling, keys drawn from a few so that many rows share one. */
const windowRows = fc.uniqueArray(hostileKey, { minLength: 1, maxLength: 6 }).chain((keys) =>
  fc
    .array(
      fc.record({ key: fc.constantFrom(...keys), gap: fc.integer({ min: 1, max: 5 }), ms: fc.integer({ min: 0, max: 2 ** 45 }), terminal: fc.boolean() }),
      {
        maxLength: 40,
      },
    )
    .map((drawn) => {
      let id = 1 + drawn.reduce((sum, row) => sum + row.gap, 0);
      const rows = drawn.map((row): SavedRow => [(id -= row.gap), row.ms, row.key, row.terminal]);
      return { keys, rows };
    }),
);

/** What a process reads back: the rows' text as sealed, with what the window's head says of it. */
function readBack(rows: SavedRow[]): SavedRowsText {
  const saved = SavedRowsText.of(rows);
  const head = { count: saved.count, lastCreatedMs: saved.lastCreatedMs, earliestCreatedMs: saved.earliestCreatedMs, newestId: rows[0]?.[0] ?? 1 };
  return SavedRowsText.sealed(saved.text, head);
}

describe("a saved window's rows, read as far as a dry run asks", () => {
  it("finds exactly the rows of a key, newest first, without reading the others, whatever the keys hold", () => {
    fc.assert(
      fc.property(windowRows, hostileKey, ({ keys, rows }, other) => {
        const text = readBack(rows);
        for (const key of [...keys, other, `${keys[0]}"`, `${keys[0]}\\`, `"${keys[0]}`])
          expect(text.withKey(key)).toEqual(rows.filter((row) => row[2] === key));
        expect(text.all()).toEqual(rows);
      }),
      { numRuns: 400 },
    );
  });

  it("finds a key that starts where a row's time would end, as a full parse does", () => {
    // The earlier row's key ends with a comma and holds what looks like a row's start; the later row's key is the one asked.
    const key = ",true],[5,100,";
    const rows: SavedRow[] = [
      [9, 2000, "x[1,2,", true],
      [5, 100, key, true],
    ];
    expect(readBack(rows).withKey(key)).toEqual([[5, 100, key, true]]);
  });

  it("refuses rows that are not what its head says or not in order, when they are read whole", () => {
    const rows: SavedRow[] = [
      [9, 2000, "SEND 7", false],
      [5, 1000, "SEND 8", true],
    ];
    const text = JSON.stringify(rows);
    const head = { count: 2, lastCreatedMs: 1000, earliestCreatedMs: 1000, newestId: 9 };
    expect(SavedRowsText.sealed(text, head).all()).toEqual(rows);
    expect(() => SavedRowsText.sealed(text, { ...head, count: 3 }).all()).toThrow(/not ones this guard saves/);
    expect(() => SavedRowsText.sealed(text, { ...head, newestId: 8 }).all()).toThrow(/not ones this guard saves/);
    expect(() => SavedRowsText.sealed(JSON.stringify([...rows].reverse()), { ...head, lastCreatedMs: 2000 }).all()).toThrow(/not ones this guard saves/);
    expect(() => SavedRowsText.sealed(text, { ...head, newestId: 8 }).withKey("SEND 7")).toThrow(/not ones this guard saves/);
  });
});
