import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AuditSealKey,
  auditLine,
  FileGuardStore,
  resealAuditLog,
  sealAuditRecord,
  sealVerdict,
  streamVerifyAuditLog,
  type AuditInput,
  type AuditRecord,
  type AuditVerdict,
  type GuardStore,
  type SealVerdict,
} from "@custody/shared";
import { MIGRATIONS, openPostgresGuardStore, SEAL_VERSION, resealPostgresAudit, verifySealedPostgresAudit } from "@custody/shared/postgres-store";
import { verifyAuditCommand } from "@custody/mcp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";

// Point 5 of issue 18 for both stores: the chain's tail is sealed with a key the database or the log
// folder never holds, so records cut from its end are refused, not rebuilt around.

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
}, 120_000);
afterAll(() => cluster?.stop());

interface Backing {
  /** What verify-audit is given: the log file, or the database's URL. */
  target: string;
  open(key: AuditSealKey): Promise<GuardStore>;
  /** Removes the last `count` records, as an editor of the file or of the table would. */
  cut(count: number): void;
  /** Changes the sealed mark to an earlier record without the key. */
  forgeSeal(seq: number): void;
  /** Removes the seal (the file, the row). */
  dropSeal(): void;
  check(key: AuditSealKey): Promise<{ verdict: AuditVerdict; seal: SealVerdict }>;
  reseal(key: AuditSealKey): Promise<AuditRecord>;
  /** What an opener's refusal says of a chain shortened to `last`, sealed at `sealed`. */
  shortened(last: number, sealed: number): RegExp;
}

function fileBacking(): Backing {
  const path = join(mkdtempSync(join(tmpdir(), "sealed-tail-")), "audit.jsonl");
  return {
    target: path,
    open: async (key) => new FileGuardStore(path, undefined, { sealKey: key }),
    cut: (count) => writeFileSync(path, `${readFileSync(path, "utf8").split("\n").slice(0, -1 - count).join("\n")}\n`),
    forgeSeal: (seq) => {
      const seal = JSON.parse(readFileSync(`${path}.seal`, "utf8")) as { checkpoint: { seq: number } };
      writeFileSync(`${path}.seal`, JSON.stringify({ ...seal, checkpoint: { ...seal.checkpoint, seq } }));
    },
    dropSeal: () => rmSync(`${path}.seal`),
    check: async (key) => ({ verdict: await streamVerifyAuditLog(path), seal: sealVerdict(path, key) }),
    reseal: (key) => resealAuditLog(path, key),
    shortened: (_last, sealed) => new RegExp(`audit log ${path} was shortened: it holds [0-9]+ bytes, but its seal ${path}\\.seal says its last line is record ${sealed} `),
  };
}

function postgresBacking(): Backing {
  const url = cluster.createDatabase("sealed");
  const name = url.split("/").at(-1) as string;
  return {
    target: url,
    open: (key) => openPostgresGuardStore(url, { sealKey: key, retryForMs: 0 }),
    cut: (count) => cluster.psql(name, `DELETE FROM custody_audit WHERE seq > (SELECT max(seq) FROM custody_audit) - ${count}`),
    forgeSeal: (seq) => cluster.psql(name, `UPDATE custody_audit_seal SET seq = ${seq}, hash = (SELECT hash FROM custody_audit WHERE seq = ${seq})`),
    dropSeal: () => cluster.psql(name, "DELETE FROM custody_audit_seal"),
    check: (key) => verifySealedPostgresAudit(url, key),
    reseal: (key) => resealPostgresAudit(url, key),
    shortened: (last, sealed) => new RegExp(`the audit chain was shortened: its last record is ${last}, below its sealed high-water mark, record ${sealed} `),
  };
}

const record = (note: string): AuditInput => ({ event: "dry_run", surface: "mcp", operator: "alice_ops", tool: "create_transaction", request_digest: null, details: { note } });

async function appended(backing: Backing, key: AuditSealKey, count: number): Promise<void> {
  const store = await backing.open(key);
  for (let index = 0; index < count; index += 1) await store.append(record(`r${index}`));
  await store.close();
}

describe.each([
  ["the file store", fileBacking],
  ["the PostgreSQL store", postgresBacking],
])("%s's sealed tail", (_name, make) => {
  it("refuses a chain cut short at its end, at open and at a running store's next append; the check says shortened; a reseal seals it as it is", async () => {
    const backing = make();
    const key = new AuditSealKey(randomBytes(32));
    await appended(backing, key, 4);
    const running = await backing.open(key);
    backing.cut(2);
    await expect(backing.open(key)).rejects.toThrow(backing.shortened(1, 3));
    await expect(running.append(record("after the cut"))).rejects.toThrow(/shortened/);
    await running.close();
    expect(await backing.check(key)).toMatchObject({ verdict: { ok: true, records: 2 }, seal: { kind: "shortened", seal: { seq: 3 } } });
    const said: string[] = [];
    expect(await verifyAuditCommand(backing.target, (line) => said.push(line), key)).toBe(1);
    expect(said).toEqual([expect.stringMatching(/^SHORTENED: the chain is intact but ends at record 1 \(2 records[^)]*\); its seal says its last record is record 3[ ,].*: records were cut from its end$/)]);

    const sealed = await backing.reseal(key);
    expect(sealed).toMatchObject({ event: "sealed", seq: 2, details: { reason: "resealed", key_id: key.id, log: { seq: 1 }, previous_seal: { seq: 3 } } });
    expect(await backing.check(key)).toMatchObject({ verdict: { ok: true, records: 3 }, seal: { kind: "holds", seal: { seq: 2 }, authenticated: true } });
    const reopened = await backing.open(key);
    expect(await reopened.append(record("after the reseal"))).toMatchObject({ seq: 3 });
    await reopened.close();
  }, 60_000);

  it("refuses a seal moved back without the key, a removed seal, and another key (naming both key ids); a new key is taken by a reseal", async () => {
    const backing = make();
    const key = new AuditSealKey(randomBytes(32));
    await appended(backing, key, 3);
    const other = new AuditSealKey(randomBytes(32));
    await expect(backing.open(other)).rejects.toThrow(`made with another key (key id ${key.id}; this key's id is ${other.id})`);

    backing.forgeSeal(1);
    await expect(backing.open(key)).rejects.toThrow(/does not match its MAC \(it was edited\)/);
    expect((await backing.check(key)).seal).toMatchObject({ kind: "unauthentic" });
    backing.dropSeal();
    await expect(backing.open(key)).rejects.toThrow(/seal .*missing|no seal/);

    // Rotation: the new key is put in place, then a person reseals.
    await backing.reseal(other);
    const rotated = await backing.open(other);
    expect(await rotated.append(record("under the new key"))).toMatchObject({ seq: 4 });
    await rotated.close();
    await expect(backing.open(key)).rejects.toThrow(/another key/);
  }, 60_000);
});

describe("a store written before seals", () => {
  it("a log is sealed at its first open as it is (every line verified), and its next append records that first", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "unsealed-")), "audit.jsonl");
    const first = sealAuditRecord(record("old 0"), { seq: 0, prevHash: "0".repeat(64) }, new Date());
    const second = sealAuditRecord(record("old 1"), { seq: 1, prevHash: first.hash }, new Date());
    writeFileSync(path, `${auditLine(first)}\n${auditLine(second)}\n`);
    const key = new AuditSealKey(randomBytes(32));
    const store = new FileGuardStore(path, undefined, { sealKey: key });
    expect(sealVerdict(path, key)).toMatchObject({ kind: "holds", seal: { seq: 1 } });
    expect(await store.append(record("new"))).toMatchObject({ seq: 3 });
    expect(readFileSync(path, "utf8").split("\n")[2]).toContain('"event":"sealed"');
    expect(JSON.parse(readFileSync(path, "utf8").split("\n")[2]!)).toMatchObject({ seq: 2, details: { reason: "first_seal", key_id: key.id, log: { seq: 1 } } });
  });

  it("a database's chain is sealed once, by the migration that brings seals; after it, records without a seal row are refused", async () => {
    const url = cluster.createDatabase("unsealed");
    const name = url.split("/").at(-1) as string;
    cluster.psql(name, "CREATE TABLE custody_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    for (const migration of MIGRATIONS.filter((each) => each.version < SEAL_VERSION)) {
      for (const statement of migration.statements) cluster.psql(name, statement);
      cluster.psql(name, `INSERT INTO custody_schema_migrations (version, name) VALUES (${migration.version}, '${migration.name}')`);
    }
    const old = sealAuditRecord(record("before seals"), { seq: 0, prevHash: "0".repeat(64) }, new Date());
    cluster.psql(name, `INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES (0, now(), 'dry_run', 'alice_ops', '${old.hash}', $line$${auditLine(old)}$line$)`);
    const key = new AuditSealKey(randomBytes(32));
    const store = await openPostgresGuardStore(url, { sealKey: key });
    await store.close();
    expect(cluster.psql(name, "SELECT seq || ':' || event || ':' || operator FROM custody_audit ORDER BY seq").trim().split("\n")).toEqual(["0:dry_run:alice_ops", "1:sealed:"]);
    expect(await verifySealedPostgresAudit(url, key)).toMatchObject({ verdict: { ok: true, records: 2 }, seal: { kind: "holds", seal: { seq: 1 }, authenticated: true } });
    cluster.psql(name, "DELETE FROM custody_audit_seal");
    await expect(openPostgresGuardStore(url, { sealKey: key })).rejects.toThrow(/the audit chain's seal is missing, but the chain was sealed \(record 1\)/);
  }, 60_000);
});
