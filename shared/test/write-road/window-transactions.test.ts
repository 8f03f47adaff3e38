import { describe, expect, it } from "vitest";
import { transactionDifferences, type ExpectedTransaction } from "../../src/kinds/kit/lost-answer-fields.js";
import { Transaction } from "../../src/schemas/transaction.js";
import { historyPages } from "../../src/write-road/history-pages.js";
import { KeptRow, WindowTransactions } from "../../src/write-road/window-transactions.js";
import { transactionWire } from "../client/wire-fixtures.js";

const tx = (id: number, amount: string, type = "SEND", created_on = "2024-03-01T10:00:00+00:00") =>
  Transaction.parse(transactionWire({ id, amount, type, created_on }));

describe("the window's transactions, looked up by what a write moves", () => {
  const list = [tx(9, "5"), tx(8, "7", "EXECUTE_CONTRACT"), tx(7, "7"), tx(6, "7", "STAKE_DEACTIVATE"), tx(5, "007"), tx(4, "8")];
  const window = WindowTransactions.of(list);

  it("gives, newest first, every transaction with one of the write's operations and its amount, and nothing else", () => {
    const send: ExpectedTransaction = { operations: ["SEND", "EXECUTE_CONTRACT"], amount: "7" };
    expect(window.candidates(send).map((candidate) => candidate.id)).toEqual([8, 7, 5]);
    // None left out: every transaction the whole comparison would take is a candidate.
    const same = list.filter((candidate) => transactionDifferences({ operations: send.operations }, candidate).length === 0 && candidate.amount === 7n);
    expect(window.candidates(send)).toEqual(same);
  });

  it("gives those of the write's operations when it names no amount, and every transaction when it names no operation", () => {
    expect(window.candidates({ operations: ["STAKE_DEACTIVATE"] })).toEqual([list[3]]);
    expect(window.candidates({ operations: ["SEND", "STAKE_DEACTIVATE"] }).map((candidate) => candidate.id)).toEqual([9, 7, 6, 5, 4]);
    expect(window.candidates({})).toEqual(list);
  });

  it("keeps, for the guard's store, each transaction's id, creation time, intent key and whether its status was terminal; read back as rows", () => {
    const rows = window.rows();
    expect(rows[0]).toEqual([9, Date.parse("2024-03-01T10:00:00Z"), "SEND 5", false]);
    const kept = WindowTransactions.kept(rows);
    // A kept row is only ever a candidate, found by the same keys, never a transaction to compare.
    expect(kept.candidates({ operations: ["SEND", "EXECUTE_CONTRACT"], amount: "7" }).map((candidate) => candidate.id)).toEqual([8, 7, 5]);
    expect(kept.candidates({ operations: ["SEND"], amount: "7" }).every((candidate) => candidate instanceof KeptRow)).toBe(true);
    expect(kept.rows()).toEqual(rows);
  });

  it("is cut by creation time without a copy when nothing is older", () => {
    const dated = WindowTransactions.of([tx(3, "1", "SEND", "2024-03-02T10:00:00Z"), tx(2, "1", "SEND", "2024-03-01T10:00:00Z")]);
    expect(dated.createdSince(Date.parse("2024-03-01T10:00:00Z"))).toBe(dated);
    const cut = dated.createdSince(Date.parse("2024-03-01T10:00:01Z"));
    expect(cut.list.map((candidate) => candidate.id)).toEqual([3]);
    expect(cut.candidates({ operations: ["SEND"], amount: "1" }).map((candidate) => candidate.id)).toEqual([3]);
  });
});

describe("the pages of the window's read", () => {
  for (const first of [5, 10]) {
    it(`(first page of ${first}) each start at or before the last row of the one before and end at the cap`, () => {
      const pages = historyPages(first, 1280);
      expect(pages[0]).toEqual({ page: 1, size: first, end: first });
      for (const [index, page] of pages.entries()) {
        expect(page.end).toBe(page.page * page.size);
        if (index === 0) continue;
        const before = pages[index - 1]?.end ?? 0;
        expect((page.page - 1) * page.size).toBeLessThanOrEqual(before - 1);
        expect(page.end).toBeGreaterThan(before);
      }
      expect(pages.at(-1)?.end).toBe(1280);
    });
  }
});
