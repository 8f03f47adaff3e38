import { randomBytes, randomUUID } from "node:crypto";
import { AuditSealKey, auditLine, sealAuditRecord, type AuditRecord, type ReservationRequest } from "@custody/shared";
import {
  openPostgresGuardStore,
  resealPostgresAudit,
  verifySealedPostgresAudit,
  DatabaseTarget,
  PostgresGuardStore,
  type PostgresStoreOptions,
  writeTableSeal,
} from "@custody/shared/postgres-store";
import { verifyAuditCommand } from "@custody/mcp-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";
import { reservation, writeRecord } from "./guard-store-behaviours.js";

// Issue 18, PostgreSQL's derived tables: the seal covers the chain, and the rows the daily limit
// and the duplicate check read (custody_commitments, custody_write_traces) are checked against
// the chain's own records, so a DELETE or UPDATE of them resets nothing unnoticed.

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
}, 120_000);
afterAll(() => cluster?.stop());

const key = new AuditSealKey(randomBytes(32));

async function database(): Promise<{
  url: string;
  psql: (sql: string) => string;
  open: (options?: PostgresStoreOptions & { maxConnections?: number }) => Promise<PostgresGuardStore>;
}> {
  const url = cluster.createDatabase("derived");
  const name = url.split("/").at(-1) as string;
  return { url, psql: (sql) => cluster.psql(name, sql), open: (options = {}) => openPostgresGuardStore(url, { sealKey: key, retryForMs: 0, ...options }) };
}

/** A reservation counting the last day only, as the road's are. */
function today(request: ReservationRequest): ReservationRequest {
  const since = new Date(Date.now() - 24 * 3_600_000);
  return { ...request, duplicatesSince: since, limits: request.limits.map((limit) => ({ ...limit, since })) };
}

/** A new database whose day holds cw-0 (1 unit) and cw-1 (6), reserved by the store returned. */
async function dayOfSeven() {
  const db = await database();
  const store = await db.open();
  expect(await store.reserve(today(reservation("cw-0", 1n)))).toMatchObject({ reserved: true });
  expect(await store.reserve(today(reservation("cw-1", 6n)))).toMatchObject({ reserved: true });
  return { db, store };
}

/** A reservation of `amount` and the store's next open are both refused: the window's first record does not start the day. */
async function expectWindowStartRefused(db: Awaited<ReturnType<typeof database>>, store: PostgresGuardStore, amount: bigint): Promise<void> {
  await expect(store.reserve(today(reservation("cw-2", amount)))).rejects.toThrow(/the audit chain's window starts at record [0-9]+, which .*reseal-audit/);
  await store.close();
  await expect(db.open()).rejects.toThrow(/the audit chain's window starts at record [0-9]+/);
}

describe("PostgreSQL's derived rows", () => {
  it.each([
    ["deleted", "DELETE FROM custody_commitments"],
    ["set to zero", "UPDATE custody_commitments SET amount = 0"],
  ])(
    "committed amounts %s do not reset the daily limit: the next write past it is refused, and the open, verify-audit and a reseal say so",
    async (_how, tamper) => {
      const db = await database();
      const store = await db.open();
      expect(await store.reserve(reservation("cw-1", 6n))).toMatchObject({ reserved: true });
      db.psql(tamper);
      await expect(store.reserve(reservation("cw-2", 5n))).rejects.toThrow(
        /custody_commitments counts 0 base units of polkadot for operator alice_ops since .*, but the audit chain's records count 6: the guard's derived rows disagree with its sealed audit chain .*nothing was sent; .*custody-mcp reseal-audit/,
      );
      await store.close();
      await expect(db.open()).rejects.toThrow(
        /custody_commitments (lacks the polkadot the audit chain counts for the write cw-1|holds 0 of polkadot for the write cw-1) of alice_ops/,
      );
      expect((await verifySealedPostgresAudit(db.url, key)).seal).toMatchObject({ kind: "unauthentic", reason: expect.stringMatching(/custody_commitments/) });
      await resealPostgresAudit(db.url, key);
      const resealed = await db.open();
      expect(await resealed.reserve(reservation("cw-2", 5n))).toMatchObject({
        reserved: false,
        reason: "daily_limit",
        finding: { facts: { spent_last_24h: "6" } },
      });
      expect(await resealed.reserve(reservation("cw-3", 4n))).toMatchObject({ reserved: true });
      await resealed.close();
      expect((await verifySealedPostgresAudit(db.url, key)).seal).toMatchObject({ kind: "holds" });
    },
  );

  it("a trace keeps whom its write was made for: a row naming another person, or none, disagrees with the chain", async () => {
    const db = await database();
    const store = await db.open();
    const alice = { subject: "alice", groups: [], roles: [] };
    expect(await store.reserve(today(reservation("cw-9", 1n, { person: alice })))).toMatchObject({ reserved: true });
    expect(await store.writeByReference("cw-9")).toMatchObject({ reference: "cw-9", person: "alice" });
    await store.close();
    const inAnotherState = /custody_write_traces holds the write cw-9 in another state than the audit chain records/;
    for (const tamper of ["person = 'bob'", "person = NULL"]) {
      db.psql(`UPDATE custody_write_traces SET ${tamper}`);
      await expect(db.open(), tamper).rejects.toThrow(inAnotherState);
      expect((await verifySealedPostgresAudit(db.url, key)).seal, tamper).toMatchObject({ kind: "unauthentic", reason: expect.stringMatching(inAnotherState) });
    }
  });

  it("a row written before schema 10 (naming no person) is given its person by the migration to schema 11, and then agrees", async () => {
    const db = await database();
    const store = await db.open();
    const alice = { subject: "alice", groups: [], roles: [] };
    expect(await store.reserve(today(reservation("cw-8", 1n, { person: alice })))).toMatchObject({ reserved: true });
    expect(await store.reserve(today(reservation("cw-7", 1n)))).toMatchObject({ reserved: true });
    await store.close();
    // The database as schema 10 left it: the row of a write an earlier version reserved names no person.
    db.psql(
      "ALTER TABLE custody_write_traces DROP COLUMN kept_request, DROP COLUMN answer; DROP INDEX custody_write_traces_concluded; " +
        "DELETE FROM custody_schema_migrations WHERE version >= 11",
    );
    db.psql("UPDATE custody_write_traces SET person = NULL");
    const migrated = await db.open();
    try {
      expect(await migrated.writeByReference("cw-8")).toMatchObject({ person: "alice" });
      expect((await migrated.writeByReference("cw-7"))?.person).toBeUndefined();
    } finally {
      await migrated.close();
    }
    expect((await verifySealedPostgresAudit(db.url, key)).seal).toMatchObject({ kind: "holds" });
  });

  it(
    "a row of a write never answered that a look-up concluded, written before schema 12 (no conclusion), is given its " +
      "conclusion by the migration to schema 12, and then agrees",
    async () => {
      const db = await database();
      const store = await db.open();
      expect(await store.reserve(today(reservation("cw-5", 1n)))).toMatchObject({ reserved: true });
      await store.append(writeRecord("resolved", "cw-5", { outcome: "found", stage: "background_lookup" }, 40));
      const concluded = (await store.writeByReference("cw-5"))?.concluded_at;
      expect(concluded).toEqual(expect.any(String));
      await store.close();
      // The database as schema 11 left it: its fold gave such a write no conclusion.
      db.psql(
        "ALTER TABLE custody_write_traces DROP COLUMN answer; DROP INDEX custody_write_traces_concluded; " +
          "DELETE FROM custody_schema_migrations WHERE version = 12",
      );
      db.psql("UPDATE custody_write_traces SET concluded_at = NULL");
      // verify-audit does not migrate: the rows agree with the chain as schema 11 keeps it.
      expect((await verifySealedPostgresAudit(db.url, key)).seal).toMatchObject({ kind: "holds" });
      const migrated = await db.open();
      try {
        expect(await migrated.writeByReference("cw-5")).toMatchObject({ transaction_id: 40, concluded_at: concluded });
      } finally {
        await migrated.close();
      }
      expect((await verifySealedPostgresAudit(db.url, key)).seal).toMatchObject({ kind: "holds" });
    },
  );

  it("a trace keeps what came back from its unclear POST: a row saying another answer disagrees with the chain", async () => {
    const db = await database();
    const store = await db.open();
    expect(await store.reserve(today(reservation("cw-4", 1n)))).toMatchObject({ reserved: true });
    await store.append(writeRecord("ambiguous", "cw-4", { answer: { kind: "server_error", http_status: 503 } }));
    await store.close();
    db.psql(`UPDATE custody_write_traces SET answer = '{"kind": "lost"}'`);
    await expect(db.open()).rejects.toThrow(/custody_write_traces holds the write cw-4 in another state than the audit chain records/);
  });

  it("a trace keeps the request its person-mode dry run kept: a row holding another disagrees with the chain", async () => {
    const db = await database();
    const store = await db.open();
    const request = today(reservation("cw-6", 1n));
    request.record = { ...request.record, details: { ...request.record.details, kept_request: { kind: "polkadot_bond_extra", amount: "1" } } };
    expect(await store.reserve(request)).toMatchObject({ reserved: true });
    await store.close();
    db.psql(`UPDATE custody_write_traces SET kept_request = '{"kind": "polkadot_bond_extra", "amount": "9"}'`);
    await expect(db.open()).rejects.toThrow(/custody_write_traces holds the write cw-6 in another state than the audit chain records/);
  });

  it("a write trace deleted does not let the identical write through the store's duplicate check", async () => {
    const db = await database();
    const store = await db.open();
    const fingerprint = "e".repeat(64);
    expect(await store.reserve(reservation("cw-a", 1n, { fingerprint }))).toMatchObject({ reserved: true });
    db.psql("DELETE FROM custody_write_traces");
    await expect(store.reserve(reservation("cw-b", 1n, { fingerprint }))).rejects.toThrow(
      /custody_write_traces lacks the write cw-a that the audit chain records \(operator alice_ops\)/,
    );
    await store.close();
    await expect(db.open()).rejects.toThrow(/custody_write_traces lacks the write cw-a/);
  });

  it.each([
    ["deleted", "DELETE FROM custody_audit WHERE seq <= (SELECT seq FROM custody_audit WHERE line LIKE '%cw-1%' ORDER BY seq DESC LIMIT 1)"],
    [
      "dated before the window",
      "UPDATE custody_audit SET at = '2000-01-01' WHERE seq <= (SELECT seq FROM custody_audit WHERE line LIKE '%cw-1%' ORDER BY seq DESC LIMIT 1)",
    ],
  ])(
    "the window's first records %s with their rows do not reset the daily limit: the fold must start from the chain's start or the record before it",
    async (_how, tamper) => {
      const db = await database();
      const store = await db.open();
      for (const [reference, amount] of [
        ["cw-0", 1n],
        ["cw-1", 6n],
        ["cw-small", 1n],
      ] as const) {
        expect(await store.reserve(today(reservation(reference, amount)))).toMatchObject({ reserved: true });
      }
      db.psql(tamper);
      db.psql("DELETE FROM custody_commitments WHERE key IN ('cw-0', 'cw-1')");
      db.psql("DELETE FROM custody_write_traces WHERE reference IN ('cw-0', 'cw-1')");
      await expectWindowStartRefused(db, store, 5n);
    },
  );

  it("every record's time moved before the window, with the rows, does not empty the day: the last record's sealed time says otherwise", async () => {
    const { db, store } = await dayOfSeven();
    db.psql("UPDATE custody_audit SET at = '2000-01-01'");
    db.psql("DELETE FROM custody_commitments");
    db.psql("DELETE FROM custody_write_traces");
    await expectWindowStartRefused(db, store, 6n);
  });

  it("a record appended after the sealed last one, hashed and linked as an append would, is refused: no append seals over it", async () => {
    const db = await database();
    const store = await db.open();
    expect(await store.reserve(reservation("cw-1", 6n))).toMatchObject({ reserved: true });
    const [seq = "", hash = ""] = db.psql("SELECT seq || ' ' || hash FROM custody_audit ORDER BY seq DESC LIMIT 1").trim().split(" ");
    const forged = sealAuditRecord({ ...reservation("cw-x", 1n).record, event: "dry_run" }, { seq: Number(seq) + 1, prevHash: hash }, new Date());
    const line = auditLine(forged).replaceAll("'", "''");
    db.psql(
      "INSERT INTO custody_audit (seq, at, event, operator, hash, line, append_key) " +
        `VALUES (${forged.seq}, '${forged.at}', '${forged.event}', '${forged.operator}', '${forged.hash}', '${line}', '${randomUUID()}')`,
    );
    await expect(store.reserve(reservation("cw-2", 1n))).rejects.toThrow(
      /the audit chain has records after its sealed last record [0-9]+ \(up to record [0-9]+\)/,
    );
    await store.close();
    await expect(db.open()).rejects.toThrow(/records after its sealed last record/);
  });

  it("a new database's empty chain is sealed: verify-audit --store says it holds", async () => {
    const db = await database();
    await (await db.open()).close();
    const said: string[] = [];
    expect(await verifyAuditCommand(db.url, (line) => said.push(line), key)).toBe(0);
    expect(said.at(-1)).toBe("seal: holds the empty chain (its MAC checked with the seal key)");
  });

  it("the chain, its seal and the derived rows all deleted do not reset the daily limit: an empty chain once sealed is not appended to", async () => {
    const { db, store } = await dayOfSeven();
    // Another replica, running and not having appended (the one that did refuses: it remembers its record).
    const other = await db.open();
    db.psql("DELETE FROM custody_audit; DELETE FROM custody_audit_seal; DELETE FROM custody_commitments; DELETE FROM custody_write_traces");
    const refusal = /the audit chain has neither records nor a seal: .*its records and seal were deleted .*reseal-audit/;
    await expect(other.reserve(today(reservation("cw-2", 5n)))).rejects.toThrow(refusal);
    await expect(store.reserve(today(reservation("cw-2", 5n)))).rejects.toThrow(/no longer holds record/);
    await other.close();
    await store.close();
    await expect(db.open()).rejects.toThrow(refusal);
    const said: string[] = [];
    expect(await verifyAuditCommand(db.url, (line) => said.push(line), key)).toBe(1);
    expect(said).toEqual([expect.stringMatching(/^SEAL MISSING: the chain is empty \(its records deleted, .*\) but has no seal row/)]);
    // A person's reseal starts the chain again.
    await resealPostgresAudit(db.url, key);
    const resealed = await db.open();
    expect(await resealed.reserve(today(reservation("cw-2", 5n)))).toMatchObject({ reserved: true });
    await resealed.close();
  });

  it("the chain put back to an earlier state with the seal row it had then, and the rows with it, is refused by a process that appended after it", async () => {
    const { db, store } = await dayOfSeven();
    const [seq, hash, keyId, mac] = db.psql("SELECT seq || ',' || hash || ',' || key_id || ',' || mac FROM custody_audit_seal").trim().split(",");
    expect(await store.reserve(today(reservation("cw-2", 1n)))).toMatchObject({ reserved: true });
    db.psql(
      `DELETE FROM custody_audit WHERE seq > ${seq}; UPDATE custody_audit_seal SET seq = ${seq}, hash = '${hash}', key_id = '${keyId}', mac = '${mac}';\n` +
        "DELETE FROM custody_commitments WHERE key = 'cw-2'; DELETE FROM custody_write_traces WHERE reference = 'cw-2'",
    );
    await expect(store.reserve(today(reservation("cw-3", 3n)))).rejects.toThrow(
      /the audit chain no longer holds record [0-9]+ \(hash [0-9a-f]{12}…\), which this process appended: .*reseal-audit .*restart/,
    );
    await expect(
      store.append({ event: "dry_run", surface: "mcp", operator: "bob_ops", tool: "polkadot_bond_extra", request_digest: null, details: {} }),
    ).rejects.toThrow(/no longer holds record/);
    await store.close();
  });

  it("a counting record edited in the chain (its hash not redone) is found by the window's fold", async () => {
    const db = await database();
    const store = await db.open();
    expect(await store.reserve(reservation("cw-1", 6n))).toMatchObject({ reserved: true });
    db.psql(`UPDATE custody_audit SET line = replace(line, '"policy_amount":"6"', '"policy_amount":"0"') WHERE event = 'reserved'`);
    db.psql("UPDATE custody_commitments SET amount = 0");
    await expect(store.reserve(reservation("cw-2", 5n))).rejects.toThrow(/the audit chain's record [0-9]+ is not the record its hash seals/);
    await store.close();
  });
});

// A replica starting, or verify-audit, while another replica writes: the open's and verify-audit's comparison of the day's
// rows with the chain reads both as of one moment, so a write committed between its two reads is no difference.
describe("the open and verify-audit while another replica writes", () => {
  it("open and say the rows agree however the other replica's appends fall between their reads", async () => {
    const db = await database();
    const writer = await db.open();
    let writing = true;
    const writes = (async () => {
      for (let index = 0; writing; index += 1) {
        await writer.reserve(today({ ...reservation(`cw-${index}`, 1n), limits: [] }));
        await writer.append({
          event: "submitted",
          surface: "mcp",
          operator: "alice_ops",
          tool: "polkadot_bond_extra",
          request_digest: null,
          transaction_id: index,
          details: { reference: `cw-${index}` },
        });
      }
    })();
    try {
      for (let open = 0; open < 15; open += 1) {
        await (await db.open()).close();
        expect((await verifySealedPostgresAudit(db.url, key)).seal).toMatchObject({ kind: "holds" });
      }
    } finally {
      writing = false;
      await writes;
      await writer.close();
    }
  }, 60_000);
});

// The check at each reservation, its cost following what is new: a process keeps the window it
// checked and reads only the records appended since; the store counts the chain's rows its checks
// read (chainRowsRead).

/** A reservation counting since `since` (its duplicates and its limits), with no limit that refuses it. */
function within(request: ReservationRequest, since: Date): ReservationRequest {
  return { ...request, duplicatesSince: since, limits: request.limits.map((limit) => ({ ...limit, since, check: () => null })) };
}

/**
 * `count` records before the day, as a team's table holds them (the planner reads the day by its
 * index): inserted by SQL, not a chain, but for the last, a real record the day's first links to,
 * sealed as its append would have.
 */
async function olderRecords(db: { url: string; psql: (sql: string) => string; open: () => Promise<PostgresGuardStore> }, count: number): Promise<void> {
  await (await db.open()).close();
  const last = sealAuditRecord(
    { event: "dry_run", surface: "mcp", operator: "bob_ops", tool: "polkadot_bond_extra", request_digest: null, details: {} },
    { seq: count - 1, prevHash: "0".repeat(64) },
    new Date(Date.now() - 26 * 3_600_000),
  );
  db.psql(
    "INSERT INTO custody_audit (seq, at, event, operator, hash, line) SELECT s, now() - interval '27 hours' - " +
      `interval '1 second' * (${count} - s), 'dry_run', 'bob_ops', lpad(to_hex(s), 64, '0'), '{}' FROM generate_series(0, ${count - 2}) s;\n` +
      `INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES (${last.seq}, '${last.at}', 'dry_run', 'bob_ops', '${last.hash}', ` +
      `$line$${auditLine(last)}$line$)`,
  );
  const sealer = new pg.Pool({ connectionString: db.url });
  await writeTableSeal(sealer, key, last);
  await sealer.end();
  db.psql("VACUUM ANALYZE");
}

/** Until PostgreSQL's statistics show what `seen` waits for (a backend reports its counts when idle or ending). */
async function reported(seen: () => boolean): Promise<void> {
  for (let waited = 0; !seen(); waited += 50) {
    if (waited > 15_000) throw new Error("the statistics never showed it");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Records of the day before the first reservation: what a full read of the window reads, and a caught-up one does not. */
const DAY = 300;

async function busyDay(store: PostgresGuardStore): Promise<void> {
  for (let index = 0; index < DAY; index += 1) {
    await store.append({ event: "dry_run", surface: "mcp", operator: "bob_ops", tool: "polkadot_bond_extra", request_digest: null, details: { index } });
  }
}

async function reserved(store: PostgresGuardStore, request: ReservationRequest): Promise<void> {
  expect(await store.reserve(today(request))).toMatchObject({ reserved: true });
}

/** The chain's rows the store's checks read while `work` ran. */
async function rowsReadBy(store: PostgresGuardStore, work: () => Promise<unknown>): Promise<number> {
  const before = store.chainRowsRead;
  await work();
  return store.chainRowsRead - before;
}

describe("the derived rows' check at each reservation", () => {
  it("reads the day's window once, then only the records appended since", async () => {
    const db = await database();
    const store = await db.open();
    await busyDay(store);
    expect(await rowsReadBy(store, () => reserved(store, reservation("cw-1", 6n)))).toBeGreaterThanOrEqual(DAY);
    await store.append({ event: "submitted", surface: "mcp", operator: "alice_ops", tool: "polkadot_bond_extra", request_digest: null, details: {} });
    // The window's start (2 rows), the last record checked, its own `reserved` record and the `submitted` one.
    expect(await rowsReadBy(store, () => reserved(store, reservation("cw-2", 3n)))).toBe(5);
    expect(await store.reserve(today(reservation("cw-3", 2n)))).toMatchObject({
      reserved: false,
      reason: "daily_limit",
      finding: { facts: { spent_last_24h: "9" } },
    });
    await store.close();
  });

  // The write traces' case repeats the intent: the rows' duplicate check would let it through once its trace is gone.
  it.each([
    [
      "committed amounts deleted",
      "DELETE FROM custody_commitments WHERE key = 'cw-1'",
      /custody_commitments counts 0 base units of polkadot .* the audit chain's records count 6/,
      {},
    ],
    [
      "a committed amount lowered",
      "UPDATE custody_commitments SET amount = 1 WHERE key = 'cw-1'",
      /custody_commitments counts 1 base units .* the audit chain's records count 6/,
      {},
    ],
    [
      "write traces deleted",
      "DELETE FROM custody_write_traces",
      /custody_write_traces lacks the write cw-1 that the audit chain records/,
      { fingerprint: "e".repeat(64) },
    ],
  ])("%s between two reservations of one process are caught by the window it kept", async (_what, tamper, refusal, intent) => {
    const db = await database();
    const store = await db.open();
    await busyDay(store);
    await reserved(store, reservation("cw-1", 6n, intent));
    db.psql(tamper);
    const read = await rowsReadBy(store, () => expect(store.reserve(today(reservation("cw-2", 1n, intent)))).rejects.toThrow(refusal));
    expect(read).toBeLessThan(10);
    await store.close();
  });

  it("finds the window's first record from the one it kept: reading neither the day's index entries nor its records", async () => {
    const db = await database();
    await olderRecords(db, 20_000);
    // One connection: the counts it reports are this store's alone.
    const store = await db.open({ maxConnections: 1 });
    const day = 1_000;
    for (let index = 0; index < day; index += 1) {
      await store.append({ event: "dry_run", surface: "mcp", operator: "bob_ops", tool: "polkadot_bond_extra", request_digest: null, details: { index } });
    }
    await reserved(store, reservation("cw-1", 6n));
    // A backend reports its counts when idle or ending: the first reservation's read of the day by time, once reported.
    const byTime = "SELECT coalesce(sum(idx_tup_read), 0) FROM pg_stat_user_indexes WHERE relname = 'custody_audit' AND indexrelname LIKE 'custody_audit_at%'";
    const inserted = "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'custody_audit'";
    // The chain's tuples read, through any index or none.
    const read =
      "SELECT t.seq_tup_read + (SELECT sum(idx_tup_read) FROM pg_stat_user_indexes i WHERE i.relid = t.relid) " +
      "FROM pg_stat_user_tables t WHERE t.relname = 'custody_audit'";
    await reported(() => Number(db.psql(byTime)) >= day);
    const [before, insertedBefore] = [Number(db.psql(read)), Number(db.psql(inserted))];
    await reserved(store, reservation("cw-2", 1n));
    await store.close();
    // Reported as the backend ends: its record's insert shows.
    await reported(() => Number(db.psql(inserted)) > insertedBefore);
    // The window's start, the last record checked and the one appended since, the append's own look-ups: each by number.
    expect(Number(db.psql(read)) - before).toBeLessThan(50);
  }, 60_000);

  it("walks from the window's kept first record past those that left it, and still holds the window's start", async () => {
    const db = await database();
    const start = Date.now() - 30 * 3_600_000;
    let clock = start;
    const store = await db.open({ now: () => new Date(clock) });
    for (let minute = 0; minute < 120; minute += 1) {
      clock = start + minute * 60_000;
      await store.reserve(within(reservation(`cw-${minute}`, 1n), new Date(start)));
    }
    clock = start + 120 * 60_000;
    // The window from minute 50 on (the fold's start an hour before it): records of minutes 0 to 49 left it.
    const since = new Date(start + 110 * 60_000);
    const read = await rowsReadBy(store, async () => expect(await store.reserve(within(reservation("cw-late", 1n), since))).toMatchObject({ reserved: true }));
    // The kept first record and the one before it, walks of 4, 16 and 64 numbers, the new start, the last checked and the new one.
    expect(read).toBeLessThan(100);
    expect(await store.committedSince({ scope: { kind: "operator", operator: "alice_ops" }, currency: "polkadot", since })).toBe(11n);
    // A shorter window's fold starts earlier (minute 40) than the kept start's: found through the index, the window still kept.
    const shorter = new Date(start + 100 * 60_000);
    const earlier = await rowsReadBy(store, async () =>
      expect(await store.reserve(within(reservation("cw-shorter", 1n), shorter))).toMatchObject({ reserved: true }),
    );
    expect(earlier).toBeLessThan(20);
    expect(await store.committedSince({ scope: { kind: "operator", operator: "alice_ops" }, currency: "polkadot", since: shorter })).toBe(22n);
    // The new start holds ChainWalk's rules: its first records dated before it, with their rows gone, are found.
    db.psql(`UPDATE custody_audit SET at = '2000-01-01' WHERE line LIKE '%"cw-50"%' OR line LIKE '%"cw-51"%'`);
    db.psql("DELETE FROM custody_commitments WHERE key IN ('cw-50', 'cw-51')");
    await expect(store.reserve(within(reservation("cw-later", 1n), new Date(since.getTime() + 60_000)))).rejects.toThrow(
      /the audit chain's window starts at record [0-9]+, which .*reseal-audit/,
    );
    await store.close();
  });

  // The docs' claim for a record this process already checked: not read again by it, but held to the fold it made, and
  // found where a chain's edits are (its broken link: the open, verify-audit).
  it("a checked record of the kept window rehashed with its amount lowered, and its row with it, is caught by the fold and at open", async () => {
    const db = await database();
    const store = await db.open();
    await busyDay(store);
    await reserved(store, reservation("cw-1", 6n));
    await store.append({ event: "dry_run", surface: "mcp", operator: "bob_ops", tool: "polkadot_bond_extra", request_digest: null, details: {} });
    // cw-1's record is now inside the window this process checked and keeps (its last record is the dry run after it).
    await reserved(store, reservation("cw-small", 1n));
    const line = db.psql(`SELECT line FROM custody_audit WHERE event = 'reserved' AND line LIKE '%"cw-1"%'`).trim();
    const { seq, prev_hash: prevHash, at, hash: _hash, ...input } = JSON.parse(line) as AuditRecord;
    const edited = sealAuditRecord({ ...input, details: { ...input.details, policy_amount: "0" } }, { seq, prevHash }, new Date(at));
    db.psql(`UPDATE custody_audit SET hash = '${edited.hash}', line = $line$${auditLine(edited)}$line$ WHERE seq = ${seq}`);
    db.psql("UPDATE custody_commitments SET amount = 0 WHERE key = 'cw-1'");
    const read = await rowsReadBy(store, () =>
      expect(store.reserve(today(reservation("cw-2", 5n)))).rejects.toThrow(/custody_commitments counts 1 base units .* the audit chain's records count 7/),
    );
    // The kept window's check, not a whole read (which would have found the broken link).
    expect(read).toBeLessThan(10);
    await store.close();
    await expect(db.open()).rejects.toThrow(new RegExp(`the audit chain is broken between records ${seq} and ${seq + 1}`));
    expect((await verifySealedPostgresAudit(db.url, key)).verdict).toMatchObject({ ok: false });
  });

  it("folds the records another process appended since, and holds their rows to them", async () => {
    const db = await database();
    const first = await db.open();
    const second = await db.open();
    await busyDay(first);
    expect(await first.reserve(today(reservation("cw-1", 6n)))).toMatchObject({ reserved: true });
    expect(await second.reserve(today(reservation("cw-2", 3n)))).toMatchObject({ reserved: true });
    // The table's 9 must be the fold's: the second process's record was read and folded.
    expect(await rowsReadBy(first, () => reserved(first, reservation("cw-3", 1n)))).toBeLessThan(10);
    db.psql("DELETE FROM custody_commitments WHERE key = 'cw-2'");
    await expect(first.reserve(today(reservation("cw-4", 1n)))).rejects.toThrow(
      /custody_commitments counts 7 base units .* the audit chain's records count 10/,
    );
    await first.close();
    await second.close();
  });
});

// Someone who edits rows, racing a reservation: the chain's lock serialises the guard's appends, not their SQL, so a record
// committed (or removed) between two statements of a reservation must neither be sealed over nor have counted in its check.

/**
 * A new database and a store on it whose connections run an armed attack once, right after the statement `after` (SQL
 * committing between two of the store's statements); cw-1 (6 units) already reserved.
 */
async function racedStore(after: string) {
  const db = await database();
  await (await db.open()).close();
  let attack: (() => void) | null = null;
  const pool = new pg.Pool({ connectionString: db.url });
  pool.on("error", () => {});
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
      const result = await query(...args);
      const armed = attack;
      if (args[0] === after && armed !== null) {
        attack = null;
        armed();
      }
      return result;
    };
    return client;
  };
  const store = new PostgresGuardStore(pool, new DatabaseTarget(db.url), { sealKey: key, retryForMs: 0 });
  expect(await store.reserve(reservation("cw-1", 6n))).toMatchObject({ reserved: true });
  return { db, store, arm: (next: () => void) => (attack = next), fired: () => attack === null };
}

/** A release of cw-1 (6 units), hashed and linked after the chain's last record as an append would, with cw-1's row deleted: its number. */
function forgeRelease(db: { psql: (sql: string) => string }): number {
  const [seq = "", hash = ""] = db.psql("SELECT seq || ' ' || hash FROM custody_audit ORDER BY seq DESC LIMIT 1").trim().split(" ");
  const release = { ...reservation("cw-1", 6n).record, event: "failed" as const, details: { reference: "cw-1", outcome: "not_applied" } };
  const forged = sealAuditRecord(release, { seq: Number(seq) + 1, prevHash: hash }, new Date());
  db.psql(
    "INSERT INTO custody_audit (seq, at, event, operator, hash, line, append_key) VALUES " +
      `(${forged.seq}, '${forged.at}', '${forged.event}', '${forged.operator}', '${forged.hash}', $line$${auditLine(forged)}$line$, '${randomUUID()}');\n` +
      "DELETE FROM custody_commitments WHERE key = 'cw-1'",
  );
  return forged.seq;
}

describe("a reservation racing records inserted or removed by SQL", () => {
  it("does not seal over a record committed between its append's check of the seal and its read of the chain's last record", async () => {
    const { db, store, arm, fired } = await racedStore("SELECT max(seq)::text AS seq FROM custody_audit");
    arm(() => forgeRelease(db));
    await expect(store.reserve(reservation("cw-small", 1n))).rejects.toThrow(/records after its sealed last record/);
    expect(fired()).toBe(true);
    // The chain is not sealed over the forged record: the write past the limit is refused, and so is the open.
    await expect(store.reserve(reservation("cw-2", 5n))).rejects.toThrow(/records after its sealed last record/);
    await store.close();
    await expect(db.open()).rejects.toThrow(/records after its sealed last record/);
  });

  it("does not let a record past the sealed last one, removed before the append, count in the check", async () => {
    const { db, store, arm, fired } = await racedStore("SELECT seq, hash, key_id, mac FROM custody_audit_seal WHERE id = 1");
    const forged = forgeRelease(db);
    // Folded by the check, then gone before the append checks the seal: the chain the append continues is the sealed one again.
    arm(() => db.psql(`DELETE FROM custody_audit WHERE seq = ${forged}`));
    await expect(store.reserve(reservation("cw-2", 5n))).rejects.toThrow(
      /the audit chain's records the derived rows were checked against go past its sealed last record [0-9]+ \(to record [0-9]+\)/,
    );
    expect(fired()).toBe(true);
    // Nothing of it was kept: the next reservation reads the chain as it stands and finds cw-1's row gone.
    await expect(store.reserve(reservation("cw-3", 1n))).rejects.toThrow(/custody_commitments counts 0 base units .* the audit chain's records count 6/);
    await store.close();
  });
});
