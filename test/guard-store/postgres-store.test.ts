import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { AuditSealKey, auditLine, FileGuardStore, sealAuditRecord, verifyAuditLog, type AuditInput, type GuardStore } from "@custody/shared";
import {
  DatabaseTarget,
  exportPostgresAudit,
  MIGRATIONS,
  openPostgresGuardStore,
  PostgresGuardStore,
  verifyPostgresAudit,
  writeTableSeal,
} from "@custody/shared/postgres-store";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";
import { reservation } from "./guard-store-behaviours.js";

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
}, 120_000);
afterAll(() => cluster?.stop());

function record(event: AuditInput["event"], details: Record<string, unknown>, extra: Partial<AuditInput> = {}): AuditInput {
  return { event, surface: "mcp", operator: "alice_ops", tool: "create_transaction", request_digest: null, details, ...extra };
}

async function exported(url: string): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  await exportPostgresAudit(url, out);
  return Buffer.concat(chunks).toString("utf8");
}

describe("the PostgreSQL store's schema", () => {
  it("is created once by stores opening at once, recorded by version; a schema newer than the program is refused", async () => {
    const url = cluster.createDatabase("schema");
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresGuardStore(url)));
    for (const store of stores) await store.close();
    expect(
      cluster
        .psql(url.split("/").at(-1) as string, "SELECT version, name FROM custody_schema_migrations ORDER BY version")
        .trim()
        .split("\n"),
    ).toEqual(MIGRATIONS.map((migration) => `${migration.version}|${migration.name}`));
    cluster.psql(url.split("/").at(-1) as string, "INSERT INTO custody_schema_migrations (version, name) VALUES (99, 'from the future')");
    await expect(openPostgresGuardStore(url)).rejects.toThrow(
      new RegExp(`schema is at version 99, newer than this program knows \\(${MIGRATIONS.at(-1)?.version}\\)`),
    );
  });

  it("migrates a store of an earlier version in place: what it had committed counts for its operator and the team, for no person", async () => {
    const url = cluster.createDatabase("upgrade");
    const name = url.split("/").at(-1) as string;
    const first = MIGRATIONS[0]!;
    cluster.psql(
      name,
      "CREATE TABLE custody_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    for (const statement of first.statements) cluster.psql(name, statement);
    cluster.psql(name, `INSERT INTO custody_schema_migrations (version, name) VALUES (1, '${first.name}')`);
    // What a write of that version left: its `reserved` record, and the row its append derived from it.
    const reserved = sealAuditRecord(
      record("reserved", { reference: "cw-old", currency: "polkadot", policy_amount: "7" }, { operator: "op1" }),
      { seq: 0, prevHash: "0".repeat(64) },
      new Date(),
    );
    cluster.psql(
      name,
      "INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES (0, now(), " +
        `'reserved', 'op1', '${reserved.hash}', $line$${auditLine(reserved)}$line$)`,
    );
    cluster.psql(name, "INSERT INTO custody_commitments (operator, key, currency, amount, last_at) VALUES ('op1', 'cw-old', 'polkadot', 7, now())");
    const store = await openPostgresGuardStore(url);
    try {
      const since = new Date(Date.now() - 86_400_000);
      expect(await store.committedSince({ scope: { kind: "operator", operator: "op1" }, currency: "polkadot", since })).toBe(7n);
      expect(await store.committedSince({ scope: { kind: "team" }, currency: "polkadot", since })).toBe(7n);
      expect(await store.committedSince({ scope: { kind: "person", subject: "alice" }, currency: "polkadot", since })).toBe(0n);
      expect(cluster.psql(name, "SELECT max(version) FROM custody_schema_migrations").trim()).toBe(String(MIGRATIONS.at(-1)?.version));
    } finally {
      await store.close();
    }
  });
});

describe("the PostgreSQL store's password", () => {
  it("is masked wherever the store names its database (location, connection errors), or given apart in a pgpass file", async () => {
    const url = cluster.createDatabase("secret");
    const store = await openPostgresGuardStore(url);
    expect(store.location).toBe(url.replace(encodeURIComponent(cluster.password), "***"));
    expect(store.location).not.toContain(cluster.password);
    await store.close();

    const closedPort = url.replace(`:${cluster.port}/`, ":1/");
    const refused = await openPostgresGuardStore(closedPort, { retryForMs: 200 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(refused?.message).toMatch(/cannot open it: .*ECONNREFUSED/);
    expect(refused?.message).toContain("postgres://postgres:***@127.0.0.1:1/");
    expect(refused?.message).not.toContain(cluster.password);

    const wrong = await openPostgresGuardStore(url.replace(encodeURIComponent(cluster.password), "not-the-password"), { retryForMs: 200 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(wrong?.message).toMatch(/password authentication failed/);
    expect(wrong?.message).not.toContain("not-the-password");

    // The password given apart, in a pgpass file (PGPASSFILE), as libpq programs take it.
    const passFile = join(mkdtempSync(join(tmpdir(), "pgpass-")), "pgpass");
    writeFileSync(passFile, `127.0.0.1:${cluster.port}:*:postgres:${cluster.password}\n`, { mode: 0o600 });
    process.env.PGPASSFILE = passFile;
    try {
      const apart = await openPostgresGuardStore(url.replace(`:${encodeURIComponent(cluster.password)}@`, "@"));
      expect(apart.location).toBe(url.replace(`:${encodeURIComponent(cluster.password)}@`, "@"));
      await apart.append(record("dry_run", {}));
      await apart.close();
    } finally {
      delete process.env.PGPASSFILE;
    }

    const target = new DatabaseTarget("postgres://u@h/db?password=s%40cret&sslmode=disable");
    expect(target.shown).not.toContain("cret");
    expect(target.redact("could not connect with s@cret or s%40cret")).toBe("could not connect with *** or ***");
  });
});

describe("the PostgreSQL store's audit chain", () => {
  it("exports as the file log writes it, byte for byte, and the file verifier accepts the export", async () => {
    const url = cluster.createDatabase("export");
    let tick = Date.parse("2026-05-01T10:00:00.000Z");
    let clock = tick;
    const now = () => new Date(clock);
    const database = await openPostgresGuardStore(url, { now });
    const path = join(mkdtempSync(join(tmpdir(), "export-")), "audit.jsonl");
    const file = new FileGuardStore(path, now);
    const inputs: AuditInput[] = [
      record("dry_run", { fingerprint: "a".repeat(64) }, { request: { kind: "send", amount: 12_345_678_901_234_567_890n, note: 'ünïcode \u2028 "quoted"' } }),
      record("reserved", { reference: "cw-1", currency: "polkadot", policy_amount: "5", fingerprint: "a".repeat(64) }),
      record("submitted", { reference: "cw-1", currency: "polkadot", policy_amount: "5" }, { transaction_id: 77, checks: [{ code: "OK", severity: "info" }] }),
      record("failed", { reference: "cw-2", outcome: "not_applied" }, { error: "HTTP 400" }),
    ];
    for (const [index, input] of inputs.entries()) {
      clock = tick += 1500;
      await file.append(input);
      // The file log begins with its `sealed` record (a database's seal is its row): the database is given the same record first.
      if (index === 0) {
        const { event, surface, operator, tool, request_digest, details } = JSON.parse(readFileSync(path, "utf8").split("\n")[0]!) as AuditInput;
        await database.append({ event, surface, operator, tool, request_digest, details });
      }
      await database.append(input);
    }
    await database.close();
    const text = await exported(url);
    expect(text).toBe(readFileSync(path, "utf8"));
    const copy = join(mkdtempSync(join(tmpdir(), "export-")), "copy.jsonl");
    writeFileSync(copy, text);
    expect(verifyAuditLog(copy)).toMatchObject({ ok: true, records: 5 });
    expect(await verifyPostgresAudit(url)).toEqual(verifyAuditLog(path));
  });

  it("fails verification at an edited, removed or reordered record", async () => {
    const url = cluster.createDatabase("tamper");
    const name = url.split("/").at(-1) as string;
    const store = await openPostgresGuardStore(url);
    for (const amount of ["1", "2", "3", "4"])
      await store.append(record("reserved", { reference: `cw-${amount}`, currency: "polkadot", policy_amount: amount, fingerprint: "b".repeat(64) }));
    await store.close();
    expect(await verifyPostgresAudit(url)).toMatchObject({ ok: true, records: 4 });
    cluster.psql(name, `UPDATE custody_audit SET line = replace(line, '"policy_amount":"3"', '"policy_amount":"1"') WHERE seq = 2`);
    expect(await verifyPostgresAudit(url)).toMatchObject({ ok: false, line: 3, reason: "line 3: hash does not match the line's content" });
    cluster.psql(name, "DELETE FROM custody_audit WHERE seq = 2");
    expect(await verifyPostgresAudit(url)).toMatchObject({ ok: false, line: 3, reason: "line 3: sequence number 3, expected 2" });
    // An edited last record also stops every further append.
    cluster.psql(name, `UPDATE custody_audit SET line = replace(line, '"policy_amount":"4"', '"policy_amount":"9"') WHERE seq = 3`);
    await expect(openPostgresGuardStore(url)).rejects.toThrow(/last record \(seq 3\) does not match its hash/);
    await expect(verifyPostgresAudit(cluster.url("postgres"))).rejects.toThrow(/no audit chain in this database/);
  });
});

const OPERATORS = ["alice_ops", "bob_ops"] as const;
const CURRENCIES = ["polkadot", "ethereum"] as const;
const REFERENCES = ["cw-1", "cw-2", "cw-3", "cw-4"] as const;
const FINGERPRINTS = ["1".repeat(64), "2".repeat(64)] as const;

/** One record of a write's life, as any surface could write it, and how many minutes after the previous one. */
const lifeRecord = fc.record({
  gapMinutes: fc.integer({ min: 0, max: 600 }),
  event: fc.constantFrom("reserved", "submitted", "ambiguous", "looked_up", "failed", "resolved", "dry_run", "confirmed"),
  operator: fc.constantFrom(...OPERATORS),
  reference: fc.option(fc.constantFrom(...REFERENCES), { nil: undefined }),
  currency: fc.constantFrom(...CURRENCIES),
  amount: fc.option(fc.bigInt({ min: 0n, max: 10n ** 30n }), { nil: undefined }),
  fingerprint: fc.constantFrom(...FINGERPRINTS),
  outcome: fc.constantFrom("not_applied", "found", "not_found", undefined),
  /** What a look-up found (a looked_up record's), or a record without it. */
  found: fc.constantFrom("nothing", "candidates", "failed", undefined),
  transactionId: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
  person: fc.option(fc.constantFrom("alice", "bob"), { nil: undefined }),
  /** An approval of a write the team counted already. */
  teamCountedBy: fc.option(fc.constantFrom(...REFERENCES), { nil: undefined }),
});

describe("the PostgreSQL store's answers", () => {
  it("equal the file log's for any sequence of records: committed amounts in any window, write traces by intent and by reference", async () => {
    const url = cluster.createDatabase("equivalence");
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(lifeRecord, { minLength: 1, maxLength: 30 }), async (records) => {
        run += 1;
        let clock = Date.parse("2026-01-01T00:00:00.000Z") + run * 1e10;
        const now = () => new Date(clock);
        const file = new FileGuardStore(join(mkdtempSync(join(tmpdir(), "equivalence-")), "audit.jsonl"), now);
        const database = await openPostgresGuardStore(url, { now });
        const operator = (name: string) => `${name}_${run}`;
        const times: number[] = [clock];
        try {
          for (const item of records) {
            clock += item.gapMinutes * 60_000;
            times.push(clock);
            const input: AuditInput = {
              event: item.event,
              surface: "mcp",
              operator: operator(item.operator),
              ...(item.person === undefined ? {} : { person: { subject: `${item.person}_${run}` } }),
              tool: "create_transaction",
              request_digest: null,
              ...(item.transactionId === undefined ? {} : { transaction_id: item.transactionId }),
              details: {
                ...(item.reference === undefined ? {} : { reference: `${item.reference}_${run}` }),
                currency: item.currency,
                ...(item.amount === undefined ? {} : { policy_amount: item.amount.toString() }),
                fingerprint: item.fingerprint,
                ...(item.outcome === undefined ? {} : { outcome: item.outcome }),
                ...(item.found === undefined ? {} : { found: item.found, ...(item.found === "candidates" ? { candidates: [3, 4] } : {}) }),
                ...(item.teamCountedBy === undefined ? {} : { team_counted_by: `${item.teamCountedBy}_${run}` }),
              },
            };
            await file.append(input);
            await database.append(input);
          }
          const ask = async (store: GuardStore) => {
            const answers: unknown[] = [];
            for (const name of OPERATORS) {
              for (const since of [0, ...times]) {
                for (const currency of CURRENCIES)
                  answers.push(await store.committedSince({ scope: { kind: "operator", operator: operator(name) }, currency, since: new Date(since) }));
                for (const fingerprint of FINGERPRINTS)
                  answers.push(await store.recentWrites({ operator: operator(name), fingerprint, since: new Date(since) }));
              }
            }
            for (const since of times) {
              for (const currency of CURRENCIES) {
                // The database holds the earlier runs too, all older than this run's first moment.
                answers.push(await store.committedSince({ scope: { kind: "team" }, currency, since: new Date(since) }));
                for (const subject of ["alice", "bob"])
                  answers.push(await store.committedSince({ scope: { kind: "person", subject: `${subject}_${run}` }, currency, since: new Date(since) }));
              }
            }
            for (const reference of REFERENCES) answers.push(await store.writeByReference(`${reference}_${run}`));
            return answers;
          };
          expect(await ask(database)).toEqual(await ask(file));
        } finally {
          await database.close();
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("answers every request through indexes, never by reading a whole table", async () => {
    const url = cluster.createDatabase("indexes");
    const name = url.split("/").at(-1) as string;
    const sealKey = new AuditSealKey(randomBytes(32));
    await (await openPostgresGuardStore(url, { sealKey })).close();
    const rows = 50_000;
    // The seeded records are not a chain, and the seeded rows are not derived from it: all lie before the day the store
    // checks its derived rows against the chain (derived-rows.ts). The last record, the only one a store reads whole
    // (when it opens), is a real record, linked to the record before the day, also real (the day's first record must link to it).
    const beforeDay = sealAuditRecord(record("dry_run", {}), { seq: rows - 1, prevHash: "0".repeat(64) }, new Date(Date.now() - 26 * 3_600_000));
    const last = auditLine(sealAuditRecord(record("dry_run", {}), { seq: rows, prevHash: beforeDay.hash }, new Date()));
    cluster.psql(
      name,
      "INSERT INTO custody_audit (seq, at, event, operator, hash, line) SELECT s, now() - interval '26 hours' - " +
        `interval '1 second' * (${rows} - s), 'dry_run', 'op' || (s % 50), lpad(to_hex(s), 64, '0'), '{}' FROM ` +
        `generate_series(0, ${rows - 2}) s;\n` +
        `       INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES (${rows - 1}, ` +
        `'${beforeDay.at}', 'dry_run', 'alice_ops', '${beforeDay.hash}', $line$${auditLine(beforeDay)}$line$);\n` +
        `       INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES (${rows}, now(), 'dry_run', ` +
        `'alice_ops', '${JSON.parse(last).hash}', $line$${last}$line$);\n` +
        "       INSERT INTO custody_write_traces SELECT 'ref-' || s, 'op' || (s % 50), md5(s::text) || md5(s::text), " +
        "'create_transaction', now() - interval '26 hours' - interval '1 minute' * s, 'submitted', s, null FROM " +
        `generate_series(1, ${rows}) s;\n` +
        "       INSERT INTO custody_commitments SELECT 'op' || (s % 50), 'ref-' || s, 'polkadot', s, now() - interval " +
        `'26 hours' - interval '1 minute' * s, 'person-' || (s % 200) FROM generate_series(1, ${rows}) s;\n` +
        "       INSERT INTO custody_intents SELECT md5(s::text), md5(s::text) || md5(s::text), 'op1', now() + interval " +
        `'1 hour', '{}', null, null FROM generate_series(1, ${rows}) s;\n` +
        "       INSERT INTO custody_latest_intents SELECT md5(s::text) || md5(s::text), md5(s::text), now() + interval " +
        `'1 hour' FROM generate_series(1, ${rows}) s;\n` +
        `       INSERT INTO custody_known_windows (workspace, account_id, body) SELECT 'http://w', s, '{}' FROM generate_series(1, ${rows}) s;`,
    );
    // Seeded by hand, so sealed by hand at its last record, as an append would have.
    const sealer = new pg.Pool({ connectionString: url });
    await writeTableSeal(sealer, sealKey, { seq: rows, hash: JSON.parse(last).hash as string });
    await sealer.end();
    cluster.psql(name, "VACUUM ANALYZE");
    // Statistics a backend kept are reported when it ends: every earlier one has ended by now, so the reset is clean.
    cluster.psql(name, "SELECT pg_stat_reset()");
    const live = await openPostgresGuardStore(url, { sealKey });
    await live.prepareIntent({ fingerprint: "c".repeat(64), nonce: "c".repeat(32), operator: "op1", expires_at: Date.now() + 60_000, sealed: "{}" });
    await live.redeemIntent("c".repeat(32));
    await live.linkNonce("c".repeat(32), "cw-new");
    await live.recentWrites({ operator: "op7", fingerprint: "d".repeat(64), since: new Date(Date.now() - 86_400_000) });
    await live.writeByReference("ref-77");
    await live.unansweredWrites({ operator: "op7", since: new Date(Date.now() - 86_400_000) }, 100);
    await live.doubtfulWrites({ operator: "op7", since: new Date(Date.now() - 86_400_000), until: new Date() }, 20);
    for (const scope of [{ kind: "operator", operator: "op7" }, { kind: "person", subject: "person-7" }, { kind: "team" }] as const) {
      await live.committedSince({ scope, currency: "polkadot", since: new Date(Date.now() - 86_400_000) });
    }
    await live.reserve(reservation("cw-new", 1n, { operator: "op7" }));
    await live.append(record("submitted", { reference: "cw-new", currency: "polkadot", policy_amount: "1" }, { operator: "op7", transaction_id: 5 }));
    expect(await live.windows.load({ workspace: "http://w", account_id: 77 })).toEqual({ found: "untrusted", reason: "not a window this guard saves" });
    live.windows.save(
      { workspace: "http://w", account_id: 78 },
      { newest: { id: 1, created_on: "2026-01-01T00:00:00Z" }, since: "x", unread_before: null, rows: [] },
    );
    await live.close();
    // Each backend reports its counts as it ends: wait until every table shows the index scans that were made.
    // The seal and the store's identity are one row each (custody_audit_seal, custody_store_identity): read whole by design.
    const query =
      "SELECT relname || ':' || seq_scan || ':' || (idx_scan > 0) FROM " +
      "pg_stat_user_tables WHERE relname LIKE 'custody_%' AND relname NOT IN " +
      "('custody_schema_migrations', 'custody_audit_seal', 'custody_store_identity') ORDER BY relname";
    let scans = cluster.psql(name, query);
    for (let tries = 0; tries < 100 && scans.includes("false"); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      scans = cluster.psql(name, query);
    }
    expect(scans.trim().split("\n")).toEqual([
      "custody_audit:0:true",
      "custody_commitments:0:true",
      "custody_intents:0:true",
      "custody_known_windows:0:true",
      "custody_latest_intents:0:true",
      "custody_write_traces:0:true",
    ]);
    // Nor a whole index: finding the day's first record once walked the primary key from the chain's first record.
    const auditTuples = Number(cluster.psql(name, "SELECT sum(idx_tup_read) FROM pg_stat_user_indexes WHERE relname = 'custody_audit'"));
    expect(auditTuples).toBeLessThan(rows / 10);
  });
});

describe("the PostgreSQL store through a database restart", () => {
  it("finishes every operation under way or begun while the database is down: none lost, none done twice, one chain", async () => {
    const url = cluster.createDatabase("restart");
    let retries = 0;
    const options = { log: () => (retries += 1), retryForMs: 60_000 };
    const stores = [await openPostgresGuardStore(url, options), await openPostgresGuardStore(url, options)];
    let running = true;
    let appends = 0;
    const references: string[] = [];
    const worker = async (store: GuardStore, name: string) => {
      for (let index = 0; running; index += 1) {
        const reference = `${name}-${index}`;
        const nonce = createHash("md5").update(reference).digest("hex");
        await store.prepareIntent({ fingerprint: nonce.repeat(2), nonce, operator: "alice_ops", expires_at: Date.now() + 60_000, sealed: "{}" });
        expect(await store.redeemIntent(nonce)).toMatchObject({ outcome: "redeemed" });
        const reserved = await store.reserve({ ...reservation(reference, 1n), limits: [] });
        expect(reserved, JSON.stringify(reserved)).toMatchObject({ reserved: true });
        await store.append(record("submitted", { reference, currency: "polkadot", policy_amount: "1" }, { transaction_id: index + 1 }));
        appends += 2;
        references.push(reference);
      }
    };
    const workers = stores.flatMap((store, which) => [0, 1, 2].map((slot) => worker(store, `w${which}${slot}`)));
    /** Until every worker could have finished a round past `count` appends: progress seen, not time spent. */
    const appendsPast = async (count: number, when: string) => {
      for (let waited = 0; appends < count + 2 * workers.length; waited += 10) {
        if (waited > 60_000) throw new Error(`no appends ${when} (${appends})`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await appendsPast(0, "before the restart");
    const before = appends;
    await cluster.restart();
    await appendsPast(appends, "after the restart");
    running = false;
    await Promise.all(workers);
    for (const store of stores) await store.close();
    expect(before).toBeGreaterThan(0);
    expect(appends).toBeGreaterThan(before);
    expect(retries).toBeGreaterThan(0);
    expect(await verifyPostgresAudit(url)).toMatchObject({ ok: true, records: appends });
    const reservedLines = (await exported(url)).split("\n").filter((line) => line.includes('"event":"reserved"'));
    expect(reservedLines.map((line) => (JSON.parse(line) as { details: { reference: string } }).details.reference).sort()).toEqual([...references].sort());
    const store = await openPostgresGuardStore(url);
    expect(await store.committedSince({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(
      BigInt(references.length),
    );
    await store.close();
  }, 120_000);
});

describe("the PostgreSQL store when a commit's answer is lost", () => {
  it("runs the operation again and recognises its own first attempt: nothing is done twice, a redemption stays its own", async () => {
    const url = cluster.createDatabase("lost_commit");
    await (await openPostgresGuardStore(url)).close();
    const pool = new pg.Pool({ connectionString: url });
    pool.on("error", () => {});
    let loseNextCommit = false;
    let lost = 0;
    // The commit happens; its answer never arrives: the driver reports the connection gone.
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as { query: unknown }).query = async (...args: unknown[]) => {
        const result = await query(...args);
        if (args[0] === "COMMIT" && loseNextCommit) {
          loseNextCommit = false;
          lost += 1;
          throw new Error("Connection terminated unexpectedly");
        }
        return result;
      };
    });
    const store = new PostgresGuardStore(pool, new DatabaseTarget(url));
    const losing = async <T>(operation: () => Promise<T>): Promise<T> => {
      loseNextCommit = true;
      return operation();
    };
    expect(await losing(() => store.append(record("dry_run", { fingerprint: "f".repeat(64) })))).toMatchObject({ seq: 0 });
    expect(await losing(() => store.reserve({ ...reservation("cw-lost", 3n), limits: [] }))).toMatchObject({ reserved: true, record: { seq: 1 } });
    await losing(() =>
      store.prepareIntent({ fingerprint: "9".repeat(64), nonce: "9".repeat(32), operator: "alice_ops", expires_at: Date.now() + 60_000, sealed: "{}" }),
    );
    expect(await losing(() => store.redeemIntent("9".repeat(32)))).toMatchObject({ outcome: "redeemed" });
    expect(await store.redeemIntent("9".repeat(32))).toMatchObject({ outcome: "reused" });
    expect(lost).toBe(4);
    expect(await store.committedSince({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(3n);
    await store.close();
    expect(await verifyPostgresAudit(url)).toMatchObject({ ok: true, records: 2 });
  });
});
