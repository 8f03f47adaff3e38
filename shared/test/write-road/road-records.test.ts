import { localText } from "../../src/l10n/translate.js";
import { describe, expect, it } from "vitest";
import type { Transaction } from "../../src/schemas/transaction.js";
import { callRecord, lookedUpRecord, planRecord, resolvedRecord, sentRecords } from "../../src/write-road/road-records.js";
import { plannedSend } from "./planned-write-fixture.js";

const alice = { subject: "alice", name: "Alice" };
const lost = { operator: "treasury-bot", person: alice, tool: "create_transaction", reference: "ref-1" };

describe("the road's audit records", () => {
  it("a plan's record names its request, the codes of its checks and its digest; an error and a transaction come last", () => {
    const plan = plannedSend({ person: alice });
    expect(planRecord("mcp", "submitted", plan, "d".repeat(64), { stage: "send" }, { transaction_id: 12 })).toEqual({
      event: "submitted",
      surface: "mcp",
      operator: "treasury-bot",
      person: alice,
      tool: "create_transaction",
      request_digest: "d".repeat(64),
      request: plan.request,
      checks: [{ code: "AMOUNT_OK", severity: "info" }],
      details: { stage: "send" },
      transaction_id: 12,
    });
    const failed = planRecord("vscode", "failed", plan, "d".repeat(64), {}, { error: "refused" });
    expect(failed.error).toBe("refused");
    expect("transaction_id" in failed).toBe(false);
    expect("error" in planRecord("mcp", "blocked", plan, "d".repeat(64), {})).toBe(false);
  });

  it("a call without a plan has no digest unless given, and leaves out what it does not have (a null request among them)", () => {
    expect(
      callRecord("mcp", {
        event: "refused",
        operator: "treasury-bot",
        person: null,
        tool: "create_transaction",
        error: "denied",
        details: { reason: "permission" },
      }),
    ).toEqual({
      event: "refused",
      surface: "mcp",
      operator: "treasury-bot",
      person: null,
      tool: "create_transaction",
      request_digest: null,
      error: "denied",
      details: { reason: "permission" },
    });
    const operation = callRecord("mcp", {
      event: "submitted",
      operator: "treasury-bot",
      person: alice,
      tool: "sync_account",
      request: null,
      request_digest: "e".repeat(64),
    });
    expect(operation).toEqual({
      event: "submitted",
      surface: "mcp",
      operator: "treasury-bot",
      person: alice,
      tool: "sync_account",
      request_digest: "e".repeat(64),
    });
    expect(callRecord("mcp", { event: "submitted", operator: "o", person: null, tool: "t", request: { id: 1 } }).request).toEqual({ id: 1 });
  });

  it("a write found names its transaction and status; one not found how long it was looked for; both the stage that concluded it", () => {
    // Only its id and status are recorded.
    const transaction = { id: 42, status: "BROADCASTED" } as unknown as Transaction;
    expect(resolvedRecord("mcp", lost, "duplicate_check", { found: true, transaction })).toEqual({
      event: "resolved",
      surface: "mcp",
      operator: "treasury-bot",
      person: alice,
      tool: "create_transaction",
      request_digest: null,
      transaction_id: 42,
      details: { reference: "ref-1", stage: "duplicate_check", outcome: "found", status: "BROADCASTED" },
    });
    const notFound = resolvedRecord("mcp", lost, "background_lookup", { found: false, lookedForMs: 60_000 });
    expect(notFound.details).toEqual({ reference: "ref-1", stage: "background_lookup", outcome: "not_found", looked_for_ms: 60_000 });
    expect("transaction_id" in notFound).toBe(false);
  });

  it("a look-up that did not find the write records what it found", () => {
    expect(lookedUpRecord("mcp", lost, null).details).toEqual({ reference: "ref-1", stage: "background_lookup", found: "failed" });
    expect(lookedUpRecord("mcp", lost, { found: "none" }).details).toEqual({ reference: "ref-1", stage: "background_lookup", found: "nothing" });
    const record = lookedUpRecord("mcp", lost, {
      found: "candidates",
      candidates: [
        { id: 3, differences: [] },
        { id: 4, differences: ["amount"] },
      ],
    });
    expect(record).toMatchObject({ event: "looked_up", operator: "treasury-bot", person: alice, tool: "create_transaction", request_digest: null });
    expect(record.details).toEqual({ reference: "ref-1", stage: "background_lookup", found: "candidates", candidates: [3, 4] });
  });

  it("a POST's outcome: submitted (after ambiguous when a look-up found it), failed and not applied, or ambiguous with its candidates", () => {
    const plan = plannedSend();
    const digest = "d".repeat(64);
    const committed = { reference: "ref-1", currency: "SOL" };
    const transaction = { id: 42, status: "SUBMITTED" } as unknown as Transaction;
    const shape = (records: ReturnType<typeof sentRecords>) => records.map((record) => [record.event, record.details, record.transaction_id, record.error]);
    expect(shape(sentRecords("mcp", plan, digest, committed, { status: "submitted", transaction, looked_up: false }))).toEqual([
      ["submitted", { ...committed, status: "SUBMITTED", looked_up: false }, 42, undefined],
    ]);
    const lost = { kind: "lost" } as const;
    expect(shape(sentRecords("mcp", plan, digest, committed, { status: "submitted", transaction, looked_up: true, answer: lost }))).toEqual([
      ["ambiguous", { ...committed, answer: lost, outcome: "found" }, undefined, undefined],
      ["submitted", { ...committed, status: "SUBMITTED", looked_up: true }, 42, undefined],
    ]);
    expect(shape(sentRecords("mcp", plan, digest, committed, { status: "not_applied", message: "refused", text: localText("refused") }))).toEqual([
      ["failed", { reference: "ref-1", outcome: "not_applied", stage: "send" }, undefined, "refused"],
    ]);
    expect(
      shape(
        sentRecords("mcp", plan, digest, committed, {
          status: "uncertain",
          message: "lost",
          text: localText("lost"),
          cause: "HTTP 503",
          answer: { kind: "server_error", http_status: 503 },
          candidates: [{ id: 5, differences: [] }],
        }),
      ),
    ).toEqual([["ambiguous", { ...committed, answer: { kind: "server_error", http_status: 503 }, candidates: [5] }, undefined, "HTTP 503"]]);
  });
});
