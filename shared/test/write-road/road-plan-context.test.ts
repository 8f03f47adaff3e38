import { describe, expect, it } from "vitest";
import type { GuardStore } from "../../src/guard-store/guard-store.js";
import type { WriteTrace } from "../../src/audit/write-traces.js";
import { grantFor } from "../../src/policy/person-grant.js";
import { Policy } from "../../src/policy/policy.js";
import type { Transaction } from "../../src/schemas/transaction.js";
import { countedLimitSets, creatingWrite } from "../../src/write-road/road-plan-context.js";

const policy = Policy.parse({ limits: { SOL: { max_per_day: { base_units: "10" } } }, team_limits: { SOL: { max_per_day: { base_units: "10" } } } });
const REFERENCE = `cw-${"a".repeat(20)}`;

/** A store that knows one write, by its reference. */
function storeWith(trace: Partial<WriteTrace> | null, asked: unknown[] = []): GuardStore {
  return {
    writeByReference: (reference: string, since?: Date) => {
      asked.push([reference, since]);
      return Promise.resolve(trace === null ? null : ({ reference, transaction_id: 9, status: "submitted", ...trace } as WriteTrace));
    },
  } as Partial<GuardStore> as GuardStore;
}
const approved = (content: string) => ({ id: 9, notes: [{ title: "t", content }] }) as unknown as Transaction;

describe("what an approval counts against", () => {
  it("every limit set, but the team's when a write of this store created the transaction", () => {
    const grant = grantFor(policy, null);
    expect(countedLimitSets(policy, grant, "treasury-bot", null).map((set) => set.scope.kind)).toEqual(["operator", "team"]);
    expect(countedLimitSets(policy, grant, "treasury-bot", REFERENCE).map((set) => set.scope.kind)).toEqual(["operator"]);
  });

  it("the creating write is the last guard marker in the notes, looked up once within the window", async () => {
    const asked: unknown[] = [];
    const since = new Date(5_000);
    expect(await creatingWrite(storeWith({}, asked), approved(`[ref cw-${"b".repeat(20)}] then [ref ${REFERENCE}]`), since)).toBe(REFERENCE);
    expect(asked).toEqual([[REFERENCE, since]]);
  });

  it("is none without a marker, when the write made another transaction, or when it was not applied", async () => {
    expect(await creatingWrite(storeWith({}), approved(`ref ${REFERENCE}`), new Date(0))).toBeNull();
    expect(await creatingWrite(storeWith(null), approved(`[ref ${REFERENCE}]`), new Date(0))).toBeNull();
    expect(await creatingWrite(storeWith({ transaction_id: 10 }), approved(`[ref ${REFERENCE}]`), new Date(0))).toBeNull();
    expect(await creatingWrite(storeWith({ status: "not_applied" }), approved(`[ref ${REFERENCE}]`), new Date(0))).toBeNull();
  });
});
