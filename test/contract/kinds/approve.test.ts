import { describe, expect, it } from "vitest";
import { writeSpec } from "@custody/shared";
import { demoForFile, planContext } from "../emulator-harness.js";

// The approve family's spec (shared/src/kinds/approve) planned on the demo workspace's pending transaction.

const demo = demoForFile();

describe("approve_transaction", () => {
  it("drafts the approval of the pending transaction with its exact amounts, naming the transaction it releases first", async () => {
    const treasury = demo.treasury();
    const pending = (await treasury.searchTransactions({ status: "PENDING_APPROVAL" })).edges[0]?.node;
    if (!pending) throw new Error("the demo workspace has no pending transaction");
    const draft = await writeSpec("approve_transaction").planAny(
      planContext(treasury),
      { kind: "approve_transaction", transaction_id: pending.id },
      "cw-0123456789abcdef0123",
    );
    expect(draft.call).toMatchObject({ method: "POST", path: `/transactions/${pending.id}/approve` });
    expect(draft.amounts).toEqual({ amount: pending.amount, max_fees: pending.max_fees });
    expect(draft.destinations[0]).toEqual({ role: "transaction", value: `${pending.id} (${pending.type})` });
    expect(draft.lostAnswer).toEqual({ by: "approval", transaction_id: pending.id, request_id: pending.last_request });
  });
});
