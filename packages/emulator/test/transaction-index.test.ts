import type { TransactionStatus } from "@custody/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TransactionIndex, type TransactionSelection } from "../src/store/indexes/transaction-index.js";
import type { TransactionRow } from "../src/store/state-types.js";

const STATUSES: TransactionStatus[] = ["PENDING_APPROVAL", "APPROVED", "SIGNED", "SUBMITTED", "REJECTED", "EXPIRED", "FAILED"];
const WORDS = ["Payroll", "payout", "REF-7", "ref-77", "Ünïcode", "x"];

function row(id: number, accountId: number, status: TransactionStatus, note: string | null): TransactionRow {
  return {
    id,
    account_id: accountId,
    request_id: id,
    type: "SEND",
    status,
    amount: 1n,
    max_fees: 1n,
    fee_due: 1n,
    fees: null,
    reserved: 0n,
    recipient: "",
    speed: "NORMAL",
    notes: note === null ? [] : [{ title: `t ${note}`, content: note }],
    coin_fields: null,
    created_by: 1,
    created_on_ms: 0,
    approved_on_ms: null,
    signed_on_ms: null,
    broadcast_on_ms: null,
    tx_hash: null,
    failure_reason: null,
    effect: { kind: "send" },
  };
}

/** GET /transactions as it was: every row, filtered, newest first, then the page. */
function naive(rows: Map<number, TransactionRow>, selection: TransactionSelection, start: number, size: number): { ids: number[]; count: number } {
  const label = selection.label?.toLowerCase() ?? null;
  const matching = [...rows.values()]
    .filter(
      (item) =>
        (selection.accountId === null || item.account_id === selection.accountId) &&
        (selection.status === null || item.status === selection.status) &&
        (label === null || item.notes.some((note) => note.title.toLowerCase().includes(label) || note.content.toLowerCase().includes(label))),
    )
    .sort((a, b) => b.id - a.id);
  return { ids: matching.slice(start, start + size).map((item) => item.id), count: matching.length };
}

const change = fc.record({
  id: fc.integer({ min: 1, max: 60 }),
  remove: fc.boolean(),
  accountId: fc.integer({ min: 1, max: 4 }),
  status: fc.constantFrom(...STATUSES),
  note: fc.option(fc.constantFrom(...WORDS), { nil: null }),
});
const selection = fc.record({
  accountId: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  status: fc.option(fc.constantFrom(...STATUSES), { nil: null }),
  label: fc.option(fc.constantFrom("pay", "REF-7", "ünï", "t ", "zzz"), { nil: null }),
});

describe("the transaction index behind GET /transactions", () => {
  it("selects the same page and count as filtering every row, through puts, updates and removals", () => {
    fc.assert(
      fc.property(
        fc.array(change, { maxLength: 150 }),
        fc.array(fc.tuple(selection, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 25 })), { minLength: 1, maxLength: 8 }),
        (changes, queries) => {
          const index = new TransactionIndex();
          const rows = new Map<number, TransactionRow>();
          for (const item of changes) {
            const before = rows.get(item.id);
            // A transaction keeps its account; only its status (and, here, its notes) change.
            const after = item.remove ? undefined : row(item.id, before?.account_id ?? item.accountId, item.status, item.note);
            index.update(before, after);
            if (after) rows.set(item.id, after);
            else rows.delete(item.id);
          }
          for (const [query, start, size] of queries) {
            expect(index.select(query, start, size, (id) => rows.get(id)?.account_id)).toEqual(naive(rows, query, start, size));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
