import { createHash } from "node:crypto";
import {
  checkDailyLimit,
  Currency,
  grantFor,
  limitSetsFor,
  Policy,
  type AuditInput,
  type AuditVerdict,
  type GuardStore,
  type Person,
  type ReservationRequest,
} from "@custody/shared";
import { describe, expect, it } from "vitest";

/** One kind of store under test: fresh stores, and more stores on the same backing (other processes sharing it). */
export interface StoreKind {
  /** A store on a new, empty backing; `twin` opens another store on that same backing. */
  fresh(): Promise<{ store: GuardStore; twin(): Promise<GuardStore>; verify(): Promise<AuditVerdict> }>;
  /** Records a new chain holds before its first write: a log starts with its `sealed` record, a database with its seal row. */
  first: number;
}

const dot = Currency.parse({
  name: "polkadot",
  units: [
    { code: "planck", magnitude: 0 },
    { code: "DOT", magnitude: 10 },
  ],
});
const policy = Policy.parse({ limits: { polkadot: { max_per_day: { base_units: "10" } } } });
const FINGERPRINT = "f".repeat(64);
const EVER = new Date(0);

/** A record of alice_ops's write after its reservation (its answer, a look-up's, a conclusion), as the road appends one. */
export function writeRecord(event: AuditInput["event"], reference: string, details: Record<string, unknown> = {}, transaction_id?: number): AuditInput {
  return {
    event,
    surface: "mcp",
    operator: "alice_ops",
    tool: "polkadot_bond_extra",
    request_digest: null,
    ...(transaction_id === undefined ? {} : { transaction_id }),
    details: { reference, ...details },
  };
}

/** A reservation of `amount` planck by the operator, one write per reference. */
export function reservation(
  reference: string,
  amount: bigint,
  options: { operator?: string; fingerprint?: string; repeatOf?: string | null; person?: Person; policy?: Policy } = {},
): ReservationRequest {
  const operator = options.operator ?? "alice_ops";
  const person = options.person ?? null;
  const sets = limitSetsFor(options.policy ?? policy, grantFor(options.policy ?? policy, person), operator);
  const fingerprint = options.fingerprint ?? createHash("sha256").update(reference).digest("hex");
  return {
    record: {
      event: "reserved",
      surface: "mcp",
      operator,
      ...(person === null ? {} : { person: { subject: person.subject } }),
      tool: "polkadot_bond_extra",
      request_digest: null,
      details: { currency: "polkadot", reference, policy_amount: amount.toString(), fingerprint, ...(options.repeatOf ? { repeat_of: options.repeatOf } : {}) },
    },
    operator,
    fingerprint,
    reference,
    duplicatesSince: EVER,
    repeatOf: options.repeatOf ?? null,
    limits: sets.map((set) => ({ scope: set.scope, currency: "polkadot", since: EVER, check: (spent: bigint) => checkDailyLimit(set, dot, amount, spent) })),
  };
}

function intent(nonce: string, fingerprint = FINGERPRINT) {
  return { fingerprint, nonce, operator: "alice_ops", expires_at: Date.now() + 60_000, sealed: JSON.stringify({ nonce }) };
}

/**
 * The promises every guard store keeps, whatever holds its state: one suite, run against each
 * kind (guard-stores.test.ts), so the stores cannot drift apart.
 */
export function describeGuardStore(name: string, kind: StoreKind): void {
  describe(`${name}: reservations`, () => {
    it("appends a reserved record while the day stays within the maximum, and refuses the one that would pass it", async () => {
      const { store, verify } = await kind.fresh();
      try {
        expect(await store.reserve(reservation("cw-1", 6n))).toMatchObject({
          reserved: true,
          record: { event: "reserved", seq: kind.first, details: { currency: "polkadot", reference: "cw-1", policy_amount: "6" } },
        });
        expect(await store.reserve(reservation("cw-2", 5n))).toMatchObject({
          reserved: false,
          reason: "daily_limit",
          finding: { code: "POLICY_MAX_PER_DAY", severity: "block", facts: { amount: "5", spent_last_24h: "6", max: "10" } },
        });
        expect(await store.reserve(reservation("cw-3", 4n))).toMatchObject({ reserved: true, record: { seq: 1 + kind.first } });
        expect(await store.committedSince({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: EVER })).toBe(10n);
        expect(await store.committedSince({ scope: { kind: "operator" as const, operator: "bob_ops" }, currency: "polkadot", since: EVER })).toBe(0n);
        expect(await verify()).toMatchObject({ ok: true, records: 2 + kind.first });
      } finally {
        await store.close();
      }
    });

    it("adds up a person's writes for their own limit and everyone's for the team's, across operators, two stores at once", async () => {
      const { store, twin, verify } = await kind.fresh();
      const other = await twin();
      const people = Policy.parse({
        team_limits: { polkadot: { max_per_day: { base_units: "10" } } },
        roles: [{ name: "treasury", when: { groups: ["treasury"] }, limits: { polkadot: { max_per_day: { base_units: "6" } } } }],
      });
      const alice = { subject: "alice", groups: ["treasury"], roles: [] };
      const bob = { subject: "bob", groups: ["treasury"], roles: [] };
      const scope = (subject: string) => ({ scope: { kind: "person" as const, subject }, currency: "polkadot", since: EVER });
      try {
        expect(await store.reserve(reservation("cw-a1", 5n, { person: alice, policy: people }))).toMatchObject({
          reserved: true,
          record: { person: { subject: "alice" } },
        });
        // Alice's own 6: her next 2 would pass it, though the team's 10 would not.
        expect(await other.reserve(reservation("cw-a2", 2n, { person: alice, policy: people }))).toMatchObject({
          reserved: false,
          reason: "daily_limit",
          finding: { code: "POLICY_PERSON_MAX_PER_DAY", facts: { spent_last_24h: "5", max: "6" } },
        });
        // Bob acts as another operator: his writes count for him and for the team, not for Alice.
        expect(await other.reserve(reservation("cw-b1", 4n, { person: bob, policy: people, operator: "bob_ops" }))).toMatchObject({ reserved: true });
        expect(await store.reserve(reservation("cw-b2", 2n, { person: bob, policy: people, operator: "bob_ops" }))).toMatchObject({
          reserved: false,
          reason: "daily_limit",
          finding: { code: "POLICY_TEAM_MAX_PER_DAY", facts: { spent_last_24h: "9", max: "10" } },
        });
        expect(await store.committedSince(scope("alice"))).toBe(5n);
        expect(await other.committedSince(scope("bob"))).toBe(4n);
        expect(await store.committedSince({ scope: { kind: "team" }, currency: "polkadot", since: EVER })).toBe(9n);
        expect(await store.committedSince({ scope: { kind: "operator", operator: "bob_ops" }, currency: "polkadot", since: EVER })).toBe(4n);
        // A write that certainly did not happen frees its person's and the team's amount alike.
        await store.append({
          event: "failed",
          surface: "mcp",
          operator: "alice_ops",
          tool: "polkadot_bond_extra",
          request_digest: null,
          details: { reference: "cw-a1", outcome: "not_applied" },
        });
        expect(await other.committedSince(scope("alice"))).toBe(0n);
        expect(await other.committedSince({ scope: { kind: "team" }, currency: "polkadot", since: EVER })).toBe(4n);
        expect(await verify()).toMatchObject({ ok: true, records: 3 + kind.first });
      } finally {
        await store.close();
        await other.close();
      }
    });

    it("keeps no long input whole: a 2 MB string is recorded as its bounded preview, length and digest", async () => {
      const { store, verify } = await kind.fresh();
      try {
        const recipient = "9".repeat(2_000_000);
        const record = await store.append({
          event: "blocked",
          surface: "mcp",
          operator: "alice_ops",
          tool: "create_transaction",
          request_digest: null,
          request: { kind: "send", recipient },
        });
        expect(record.request).toMatchObject({ recipient: { length: recipient.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
        expect(JSON.stringify(record).length).toBeLessThan(4096);
        expect(await verify()).toMatchObject({ ok: true, records: 1 + kind.first });
      } finally {
        await store.close();
      }
    });

    it("refuses a second write of the same intent while the first stands, names it, and lets the acknowledged repeat through", async () => {
      const { store } = await kind.fresh();
      try {
        expect(await store.reserve(reservation("cw-a", 1n, { fingerprint: FINGERPRINT }))).toMatchObject({ reserved: true });
        expect(await store.reserve(reservation("cw-b", 1n, { fingerprint: FINGERPRINT }))).toMatchObject({
          reserved: false,
          reason: "duplicate",
          earlier: { reference: "cw-a", status: "in_flight", transaction_id: null },
        });
        await store.append({
          event: "submitted",
          surface: "mcp",
          operator: "alice_ops",
          tool: "polkadot_bond_extra",
          request_digest: null,
          transaction_id: 41,
          details: { reference: "cw-a" },
        });
        expect(await store.reserve(reservation("cw-c", 1n, { fingerprint: FINGERPRINT, repeatOf: "cw-a" }))).toMatchObject({
          reserved: false,
          reason: "duplicate",
          earlier: { transaction_id: 41 },
        });
        expect(await store.reserve(reservation("cw-d", 1n, { fingerprint: FINGERPRINT, repeatOf: "41" }))).toMatchObject({ reserved: true });
        expect(await store.writeByReference("cw-d")).toMatchObject({ status: "in_flight", repeat_of: "41" });
        expect(await store.writeByReference("cw-a")).toMatchObject({ status: "submitted", transaction_id: 41 });
        expect(await store.writeByReference("cw-none")).toBeNull();
        // Within a window only: the look-up an approval makes of a reference found in a transaction's notes.
        expect(await store.writeByReference("cw-a", EVER)).toMatchObject({ reference: "cw-a", transaction_id: 41 });
        expect(await store.writeByReference("cw-a", new Date(Date.now() + 60_000))).toBeNull();
        expect(await store.writeByReference("cw-none", EVER)).toBeNull();
        // Another operator's identical-looking write is its own.
        expect(await store.reserve(reservation("cw-e", 1n, { fingerprint: FINGERPRINT, operator: "bob_ops" }))).toMatchObject({ reserved: true });
        const recent = await store.recentWrites({ operator: "alice_ops", fingerprint: FINGERPRINT, since: EVER });
        expect(recent.map((trace) => trace.reference)).toEqual(["cw-d", "cw-a"]);
      } finally {
        await store.close();
      }
    });

    it(
      "keeps what identifies each write with its reservation and lists the writes left " + "unanswered, to any store on the backing, until a look-up concludes",
      async () => {
        const { store, twin } = await kind.fresh();
        const recognition = {
          account_id: 3,
          lost: { by: "new_transactions", expected: { operations: ["STAKE_CREATE_DELEGATE"], amount: "5000000000", validator: "V" } },
          watermark: 17,
        };
        const reserve = (reference: string, operator = "alice_ops") => {
          const request = reservation(reference, 1n, { operator });
          return store.reserve({ ...request, record: { ...request.record, details: { ...request.record.details, recognition } } });
        };
        const conclude = (reference: string, outcome: string, transaction_id?: number) =>
          store.append({
            event: "resolved",
            surface: "mcp",
            operator: "alice_ops",
            tool: "polkadot_bond_extra",
            request_digest: null,
            ...(transaction_id === undefined ? {} : { transaction_id }),
            details: { reference, outcome },
          });
        const other = await twin();
        try {
          for (const reference of ["cw-u1", "cw-u2", "cw-u3", "cw-u4", "cw-u5"]) expect(await reserve(reference)).toMatchObject({ reserved: true });
          expect(await reserve("cw-bob", "bob_ops")).toMatchObject({ reserved: true });
          await store.append({
            event: "ambiguous",
            surface: "mcp",
            operator: "alice_ops",
            tool: "polkadot_bond_extra",
            request_digest: null,
            details: { reference: "cw-u2" },
          });
          await store.append({
            event: "submitted",
            surface: "mcp",
            operator: "alice_ops",
            tool: "polkadot_bond_extra",
            request_digest: null,
            transaction_id: 18,
            details: { reference: "cw-u3" },
          });
          await conclude("cw-u4", "found", 19);
          await conclude("cw-u5", "not_found");
          const unanswered = await other.unansweredWrites({ operator: "alice_ops", since: EVER }, 100);
          expect(unanswered.map((trace) => [trace.reference, trace.status]).sort()).toEqual([
            ["cw-u1", "in_flight"],
            ["cw-u2", "uncertain"],
          ]);
          expect(unanswered[0]?.recognition).toEqual(recognition);
          expect(await other.unansweredWrites({ operator: "alice_ops", since: EVER }, 1)).toHaveLength(1);
          expect(await other.unansweredWrites({ operator: "alice_ops", since: new Date(Date.now() + 60_000) }, 100)).toEqual([]);
          // A sweep's bound: only those reserved by then (cw-u2 was reserved after cw-u1).
          const first = new Date((await other.writeByReference("cw-u1"))?.reserved_at ?? 0);
          const sentBy = async (moment: Date) =>
            (await other.unansweredWrites({ operator: "alice_ops", since: EVER, sentBy: moment }, 100)).map((trace) => trace.reference);
          expect(await sentBy(first)).toEqual(["cw-u1"]);
          expect(await sentBy(new Date(first.getTime() - 1))).toEqual([]);
          // A write given up on still stands for the duplicate check, and is still counted.
          expect(await other.writeByReference("cw-u5")).toMatchObject({ status: "in_flight", given_up: true, transaction_id: null });
        } finally {
          await other.close();
          await store.close();
        }
      },
    );

    it(
      "lists the writes of a window whose answer was lost, with when it was lost and " + "concluded, and those never answered, to any store on the backing",
      async () => {
        const { store, twin } = await kind.fresh();
        const record = (event: AuditInput["event"], reference: string, details: Record<string, unknown> = {}, transaction_id?: number) =>
          store.append(writeRecord(event, reference, details, transaction_id));
        const other = await twin();
        try {
          for (const reference of ["cw-d1", "cw-d2", "cw-d3", "cw-d4", "cw-d5"])
            expect(await store.reserve(reservation(reference, 1n))).toMatchObject({ reserved: true });
          expect(await store.reserve(reservation("cw-bob", 1n, { operator: "bob_ops" }))).toMatchObject({ reserved: true });
          await record("submitted", "cw-d1", {}, 21);
          for (const reference of ["cw-d2", "cw-d3", "cw-d4"]) await record("ambiguous", reference);
          await record("looked_up", "cw-d4", { stage: "background_lookup", found: "candidates", candidates: [30, 31] });
          await record("looked_up", "cw-d4", { stage: "background_lookup", found: "nothing" });
          await record("resolved", "cw-d3", { outcome: "found" }, 22);
          await record("resolved", "cw-d4", { outcome: "not_found", looked_for_ms: 120_000 });
          const window = { operator: "alice_ops", since: EVER, until: new Date(Date.now() + 60_000) };
          const doubtful = await other.doubtfulWrites(window, 100);
          expect(doubtful.complete).toBe(true);
          const byReference = new Map(doubtful.writes.map((trace) => [trace.reference, trace]));
          // cw-d1 was answered; bob's is another operator's.
          expect([...byReference.keys()].sort()).toEqual(["cw-d2", "cw-d3", "cw-d4", "cw-d5"]);
          expect(byReference.get("cw-d2")).toMatchObject({ status: "uncertain", answer_lost_at: expect.any(String) });
          expect(byReference.get("cw-d2")?.concluded_at).toBeUndefined();
          expect(byReference.get("cw-d3")).toMatchObject({
            status: "submitted",
            transaction_id: 22,
            answer_lost_at: expect.any(String),
            concluded_at: expect.any(String),
          });
          expect(byReference.get("cw-d4")).toMatchObject({
            status: "uncertain",
            given_up: true,
            looked_for_ms: 120_000,
            concluded_at: expect.any(String),
            lookups: 2,
            last_lookup: { at: expect.any(String), found: "nothing" },
          });
          expect(byReference.get("cw-d2")?.lookups).toBeUndefined();
          expect(byReference.get("cw-d5")).toMatchObject({ status: "in_flight", transaction_id: null });
          expect(byReference.get("cw-d5")?.answer_lost_at).toBeUndefined();
          expect(await other.doubtfulWrites(window, 2)).toMatchObject({ writes: [expect.anything(), expect.anything()], complete: false });
          // A later window still lists those whose outcome is unknown (issue 21), not the one found before it; one that ends before they were sent, none.
          const later = await other.doubtfulWrites({ ...window, since: new Date(Date.now() + 60_000), until: new Date(Date.now() + 120_000) }, 100);
          expect(later.writes.map((trace) => trace.reference).sort()).toEqual(["cw-d2", "cw-d4", "cw-d5"]);
          expect((await other.doubtfulWrites({ ...window, until: new Date(Date.now() - 3_600_000) }, 100)).writes).toEqual([]);
        } finally {
          await other.close();
          await store.close();
        }
      },
    );

    it(
      "lists a write never answered that a look-up concluded (its process stopped) when concluded in the window, and keeps " +
        "what came back from an unclear POST, to any store on the backing",
      async () => {
        const { store, twin, verify } = await kind.fresh();
        try {
          for (const reference of ["cw-c1", "cw-c2"]) expect(await store.reserve(reservation(reference, 1n))).toMatchObject({ reserved: true });
          const sent = await store.writeByReference("cw-c1");
          // The window starts after both were sent: only what was concluded in it, or is still unknown, is listed.
          const window = { operator: "alice_ops", since: new Date(Date.parse(sent?.reserved_at ?? "") + 1), until: new Date(Date.now() + 60_000) };
          await store.append(writeRecord("resolved", "cw-c1", { outcome: "found", stage: "background_lookup" }, 40));
          await store.append(writeRecord("ambiguous", "cw-c2", { answer: { kind: "server_error", http_status: 503 } }));
          const other = await twin();
          try {
            const byReference = new Map((await other.doubtfulWrites(window, 100)).writes.map((trace) => [trace.reference, trace]));
            expect([...byReference.keys()].sort()).toEqual(["cw-c1", "cw-c2"]);
            expect(byReference.get("cw-c1")).toMatchObject({ status: "submitted", transaction_id: 40, concluded_at: expect.any(String) });
            expect(byReference.get("cw-c1")?.answer_lost_at).toBeUndefined();
            expect(byReference.get("cw-c2")).toMatchObject({ status: "uncertain", answer: { kind: "server_error", http_status: 503 } });
          } finally {
            await other.close();
          }
        } finally {
          await store.close();
        }
        expect(await verify()).toMatchObject({ ok: true });
      },
    );

    it("keeps a write left unanswered, with what identifies it, and a write given up on, through a graceful close and a reopen", async () => {
      const { store, twin } = await kind.fresh();
      const recognition = {
        account_id: 3,
        lost: { by: "new_transactions", expected: { operations: ["STAKE_CREATE_DELEGATE"], amount: "5000000000", validator: "V" } },
        watermark: 17,
      };
      for (const reference of ["cw-open", "cw-gone"]) {
        const request = reservation(reference, 1n);
        expect(await store.reserve({ ...request, record: { ...request.record, details: { ...request.record.details, recognition } } })).toMatchObject({
          reserved: true,
        });
      }
      await store.append(writeRecord("looked_up", "cw-gone", { found: "candidates", candidates: [40] }));
      await store.append(writeRecord("resolved", "cw-gone", { outcome: "not_found" }));
      // A graceful stop (the file store saves its ledger), then the next process opens the store.
      await store.close();
      const reopened = await twin();
      try {
        const unanswered = await reopened.unansweredWrites({ operator: "alice_ops", since: EVER }, 100);
        expect(unanswered.map((trace) => trace.reference)).toEqual(["cw-open"]);
        expect(unanswered[0]?.recognition).toEqual(recognition);
        expect(await reopened.writeByReference("cw-gone")).toMatchObject({
          given_up: true,
          recognition,
          lookups: 1,
          last_lookup: { found: "candidates", candidates: [40] },
        });
      } finally {
        await reopened.close();
      }
    });

    it("keeps with a write's trace the request its person-mode dry run kept, for the next process too", async () => {
      const { store, twin } = await kind.fresh();
      const kept = { kind: "polkadot_bond_extra", account: "dot-staking", amount: "12", correlation_id: "cw-kept" };
      const request = reservation("cw-kept", 1n);
      request.record = { ...request.record, details: { ...request.record.details, kept_request: kept } };
      expect(await store.reserve(request)).toMatchObject({ reserved: true });
      expect(await store.reserve(reservation("cw-token", 1n))).toMatchObject({ reserved: true });
      expect((await store.writeByReference("cw-kept"))?.kept_request).toEqual(kept);
      expect((await store.writeByReference("cw-token"))?.kept_request).toBeUndefined();
      await store.close();
      const reopened = await twin();
      try {
        expect((await reopened.writeByReference("cw-kept"))?.kept_request).toEqual(kept);
      } finally {
        await reopened.close();
      }
    });

    it("frees the intent and the amount of a write that certainly did not happen", async () => {
      const { store } = await kind.fresh();
      try {
        expect(await store.reserve(reservation("cw-x", 7n, { fingerprint: FINGERPRINT }))).toMatchObject({ reserved: true });
        await store.append({
          event: "failed",
          surface: "mcp",
          operator: "alice_ops",
          tool: "polkadot_bond_extra",
          request_digest: null,
          details: { reference: "cw-x", outcome: "not_applied" },
        });
        expect(await store.committedSince({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: EVER })).toBe(0n);
        expect(await store.reserve(reservation("cw-y", 7n, { fingerprint: FINGERPRINT }))).toMatchObject({ reserved: true });
        expect(await store.writeByReference("cw-x")).toMatchObject({ status: "not_applied" });
      } finally {
        await store.close();
      }
    });

    it("lets two stores on one backing (two processes), reserving at once, pass the maximum no further between them; one chain", async () => {
      const { store, twin, verify } = await kind.fresh();
      const other = await twin();
      try {
        const attempts = (target: GuardStore, prefix: string) => Array.from({ length: 8 }, (_, index) => target.reserve(reservation(`${prefix}-${index}`, 1n)));
        const results = await Promise.all([...attempts(store, "one"), ...attempts(other, "two")]);
        expect(results.filter((result) => result.reserved)).toHaveLength(10);
        expect(results.filter((result) => !result.reserved && result.reason === "daily_limit")).toHaveLength(6);
        expect(await other.committedSince({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: EVER })).toBe(10n);
        expect(await verify()).toMatchObject({ ok: true, records: 10 + kind.first });
      } finally {
        await store.close();
        await other.close();
      }
    });

    it("sends one of two identical writes reserved at once by two stores: the other is its duplicate", async () => {
      const { store, twin } = await kind.fresh();
      const other = await twin();
      try {
        const results = await Promise.all([
          store.reserve(reservation("cw-p", 1n, { fingerprint: FINGERPRINT })),
          other.reserve(reservation("cw-q", 1n, { fingerprint: FINGERPRINT })),
        ]);
        expect(results.filter((result) => result.reserved)).toHaveLength(1);
        expect(results.filter((result) => !result.reserved && result.reason === "duplicate")).toHaveLength(1);
      } finally {
        await store.close();
        await other.close();
      }
    });
  });

  describe(`${name}: intents`, () => {
    it("redeems a nonce once, ever; a newer dry run of the same intent voids the older one", async () => {
      const { store } = await kind.fresh();
      try {
        await store.prepareIntent(intent("a".repeat(32)));
        await store.prepareIntent(intent("b".repeat(32)));
        expect(await store.redeemIntent("a".repeat(32))).toMatchObject({ outcome: "superseded" });
        expect(await store.redeemIntent("b".repeat(32))).toEqual({ outcome: "redeemed", sealed: JSON.stringify({ nonce: "b".repeat(32) }) });
        expect(await store.redeemIntent("b".repeat(32))).toEqual({ outcome: "reused", reference: null });
        await store.linkNonce("b".repeat(32), "cw-zz");
        expect(await store.redeemIntent("b".repeat(32))).toEqual({ outcome: "reused", reference: "cw-zz" });
        expect(await store.redeemIntent("c".repeat(32))).toEqual({ outcome: "unknown" });
      } finally {
        await store.close();
      }
    });

    it("are looked up without being used: open until redeemed, then reused; superseded and unknown as redeeming would find them", async () => {
      const { store, twin } = await kind.fresh();
      const other = await twin();
      try {
        await store.prepareIntent(intent("f".repeat(32), "1".repeat(64)));
        const open = { outcome: "open", sealed: JSON.stringify({ nonce: "f".repeat(32) }) };
        expect(await store.lookUpIntent("f".repeat(32))).toEqual(open);
        expect(await other.lookUpIntent("f".repeat(32))).toEqual(open);
        expect(await other.redeemIntent("f".repeat(32))).toMatchObject({ outcome: "redeemed" });
        expect(await store.lookUpIntent("f".repeat(32))).toEqual({ outcome: "reused", reference: null });
        await store.prepareIntent(intent("1".repeat(32), "2".repeat(64)));
        await store.prepareIntent(intent("2".repeat(32), "2".repeat(64)));
        expect(await store.lookUpIntent("1".repeat(32))).toMatchObject({ outcome: "superseded" });
        expect(await store.lookUpIntent("3".repeat(32))).toEqual({ outcome: "unknown" });
        // Another key keeps its own latest: one person's dry run does not void another's.
        await store.prepareIntent(intent("4".repeat(32), "5".repeat(64)));
        expect(await store.lookUpIntent("2".repeat(32))).toMatchObject({ outcome: "open" });
      } finally {
        await store.close();
        await other.close();
      }
    });

    it("list the dry runs waiting for a person, by operator and person, to any store on the backing, until used, superseded or expired", async () => {
      const { store, twin } = await kind.fresh();
      const other = await twin();
      const single = { operator: "alice_ops", person: null };
      const waiting = (nonce: string, fingerprint: string, person: string | null, extra: { operator?: string; expires_at?: number } = {}) => ({
        ...intent(nonce, fingerprint),
        ...extra,
        waiting_for: { person },
      });
      const nonces = async (each: GuardStore, query: { operator: string; person: string | null } = single, limit = 10) =>
        (await each.waitingIntents(query, limit)).map((found) => found.nonce);
      try {
        const soon = Date.now() + 30_000;
        await store.prepareIntent(waiting("a".repeat(32), "1".repeat(64), null));
        await store.prepareIntent(waiting("b".repeat(32), "2".repeat(64), null, { expires_at: soon }));
        await store.prepareIntent(waiting("c".repeat(32), "3".repeat(64), "carol"));
        await store.prepareIntent(waiting("d".repeat(32), "4".repeat(64), null, { operator: "bob_ops" }));
        await store.prepareIntent(intent("e".repeat(32), "5".repeat(64)));
        await store.prepareIntent(waiting("f".repeat(32), "6".repeat(64), null, { expires_at: Date.now() - 1 }));
        // Soonest to expire first, each with what its confirmation rebuilds; the token-mode and expired ones are not listed.
        expect(await other.waitingIntents(single, 10)).toEqual([
          { nonce: "b".repeat(32), expires_at: soon, sealed: JSON.stringify({ nonce: "b".repeat(32) }) },
          expect.objectContaining({ nonce: "a".repeat(32) }),
        ]);
        expect(await nonces(store, single, 1)).toEqual(["b".repeat(32)]);
        expect(await nonces(store, { operator: "alice_ops", person: "carol" })).toEqual(["c".repeat(32)]);
        expect(await nonces(store, { operator: "bob_ops", person: null })).toEqual(["d".repeat(32)]);
        expect(await other.redeemIntent("b".repeat(32))).toMatchObject({ outcome: "redeemed" });
        await store.prepareIntent(waiting("9".repeat(32), "1".repeat(64), null));
        expect(await nonces(store)).toEqual(["9".repeat(32)]);
      } finally {
        await store.close();
        await other.close();
      }
    });

    it("are shared by stores on one backing, and a nonce redeemed by several at once is redeemed by one", async () => {
      const { store, twin } = await kind.fresh();
      const others = [await twin(), await twin()];
      try {
        await store.prepareIntent(intent("d".repeat(32), "e".repeat(64)));
        const outcomes = await Promise.all([store, ...others].map((each) => each.redeemIntent("d".repeat(32))));
        expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(["redeemed", "reused", "reused"]);
        expect(await (others[0] as GuardStore).redeemIntent("d".repeat(32))).toMatchObject({ outcome: "reused" });
      } finally {
        for (const each of [store, ...others]) await each.close();
      }
    });
  });
}
