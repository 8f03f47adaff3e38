import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  AuditSealKey,
  auditLine,
  FileGuardStore,
  readSealKeyFile,
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
  /** Records a new chain holds before its first append: a log starts with its `sealed` record, a database with its seal row. */
  first: number;
  open(key: AuditSealKey): Promise<GuardStore>;
  /** Removes the last `count` records, as an editor of the file or of the table would. */
  cut(count: number): void;
  /** Changes the sealed mark to an earlier record without the key. */
  forgeSeal(seq: number): void;
  /** Removes the seal (the file, the row). */
  dropSeal(): void;
  /** Removes the seal and whatever else beside the chain says it was sealed (a file's ledger; a database has nothing more). */
  dropSealWhole(): void;
  /** Writes another key id into the seal, keeping its MAC. */
  rekeySeal(keyId: string): void;
  check(key: AuditSealKey): Promise<{ verdict: AuditVerdict; seal: SealVerdict }>;
  reseal(key: AuditSealKey): Promise<AuditRecord>;
  /** What an opener's refusal says of a chain shortened to `last`, sealed at `sealed`. */
  shortened(last: number, sealed: number): RegExp;
}

function fileBacking(): Backing {
  return fileBackingAt(join(mkdtempSync(join(tmpdir(), "sealed-tail-")), "audit.jsonl"));
}

function fileBackingAt(path: string): Backing {
  return {
    target: path,
    first: 1,
    open: async (key) => new FileGuardStore(path, undefined, { sealKey: key }),
    cut: (count) =>
      writeFileSync(
        path,
        `${readFileSync(path, "utf8")
          .split("\n")
          .slice(0, -1 - count)
          .join("\n")}\n`,
      ),
    forgeSeal: (seq) => {
      const seal = JSON.parse(readFileSync(`${path}.seal`, "utf8")) as { checkpoint: { seq: number } };
      writeFileSync(`${path}.seal`, JSON.stringify({ ...seal, checkpoint: { ...seal.checkpoint, seq } }));
    },
    dropSeal: () => rmSync(`${path}.seal`),
    dropSealWhole: () => {
      rmSync(`${path}.seal`);
      rmSync(`${path}.ledger.json`);
    },
    rekeySeal: (keyId) => {
      const seal = JSON.parse(readFileSync(`${path}.seal`, "utf8")) as { key_id: string };
      writeFileSync(`${path}.seal`, JSON.stringify({ ...seal, key_id: keyId }));
    },
    check: async (key) => ({ verdict: await streamVerifyAuditLog(path), seal: sealVerdict(path, key) }),
    reseal: (key) => resealAuditLog(path, key),
    shortened: (_last, sealed) =>
      new RegExp(`audit log ${path} was shortened: it holds [0-9]+ bytes, but its seal ${path}\\.seal says its last line is record ${sealed} `),
  };
}

function postgresBacking(): Backing {
  const url = cluster.createDatabase("sealed");
  const name = url.split("/").at(-1) as string;
  return {
    target: url,
    first: 0,
    open: (key) => openPostgresGuardStore(url, { sealKey: key, retryForMs: 0 }),
    cut: (count) => cluster.psql(name, `DELETE FROM custody_audit WHERE seq > (SELECT max(seq) FROM custody_audit) - ${count}`),
    forgeSeal: (seq) => cluster.psql(name, `UPDATE custody_audit_seal SET seq = ${seq}, hash = (SELECT hash FROM custody_audit WHERE seq = ${seq})`),
    dropSeal: () => cluster.psql(name, "DELETE FROM custody_audit_seal"),
    dropSealWhole: () => cluster.psql(name, "DELETE FROM custody_audit_seal"),
    rekeySeal: (keyId) => cluster.psql(name, `UPDATE custody_audit_seal SET key_id = '${keyId}'`),
    check: (key) => verifySealedPostgresAudit(url, key),
    reseal: (key) => resealPostgresAudit(url, key),
    shortened: (last, sealed) => new RegExp(`the audit chain was shortened: its last record is ${last}, below its sealed high-water mark, record ${sealed} `),
  };
}

const record = (note: string): AuditInput => ({
  event: "dry_run",
  surface: "mcp",
  operator: "alice_ops",
  tool: "create_transaction",
  request_digest: null,
  details: { note },
});

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
    const o = backing.first;
    const key = new AuditSealKey(randomBytes(32));
    await appended(backing, key, 4);
    const running = await backing.open(key);
    backing.cut(2);
    await expect(backing.open(key)).rejects.toThrow(backing.shortened(1 + o, 3 + o));
    await expect(running.append(record("after the cut"))).rejects.toThrow(/shortened/);
    await running.close();
    expect(await backing.check(key)).toMatchObject({ verdict: { ok: true, records: 2 + o }, seal: { kind: "shortened", seal: { seq: 3 + o } } });
    const said: string[] = [];
    expect(await verifyAuditCommand(backing.target, (line) => said.push(line), key)).toBe(1);
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(
          `^SHORTENED: the chain is intact but ends at record ${1 + o} \\(${2 + o} records[^)]*\\); its seal ` +
            `says its last record is record ${3 + o}[ ,].*: records were cut from its end$`,
        ),
      ),
    ]);

    const sealed = await backing.reseal(key);
    expect(sealed).toMatchObject({
      event: "sealed",
      seq: 2 + o,
      details: { reason: "resealed", key_id: key.id, log: { seq: 1 + o }, previous_seal: { seq: 3 + o } },
    });
    expect(await backing.check(key)).toMatchObject({
      verdict: { ok: true, records: 3 + o },
      seal: { kind: "holds", seal: { seq: 2 + o }, authenticated: true },
    });
    const reopened = await backing.open(key);
    expect(await reopened.append(record("after the reseal"))).toMatchObject({ seq: 3 + o });
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
    expect(await rotated.append(record("under the new key"))).toMatchObject({ seq: 4 + backing.first });
    await rotated.close();
    await expect(backing.open(key)).rejects.toThrow(/another key/);
  }, 60_000);
});

describe.each([
  ["the file store", fileBacking],
  ["the PostgreSQL store", postgresBacking],
])("verify-audit on %s", (_name, make) => {
  const verified = async (backing: Backing, key: AuditSealKey | null) => {
    const said: string[] = [];
    const status = await verifyAuditCommand(backing.target, (line) => said.push(line), key);
    return { status, said: said.join("\n") };
  };

  it("never says ok where the store refuses to open: a seal naming another key id, given the right key, is not trusted", async () => {
    const backing = make();
    const key = new AuditSealKey(randomBytes(32));
    await appended(backing, key, 3);
    backing.rekeySeal("0".repeat(16));
    await expect(backing.open(key)).rejects.toThrow(`made with another key (key id ${"0".repeat(16)}; this key's id is ${key.id})`);
    expect(await verified(backing, key)).toEqual({
      status: 1,
      said: expect.stringMatching(new RegExp(`^SEAL NOT TRUSTED: .*made with another key \\(key id 0{16}; this key's id is ${key.id}\\)`)),
    });
  }, 60_000);

  it("never says ok where the store refuses to open: a chain cut and its seal removed is SEAL MISSING", async () => {
    const backing = make();
    const key = new AuditSealKey(randomBytes(32));
    await appended(backing, key, 5);
    backing.cut(2);
    backing.dropSealWhole();
    await expect(backing.open(key)).rejects.toThrow(/seal .*missing|records but no seal/);
    expect(await verified(backing, key)).toEqual({ status: 1, said: expect.stringMatching(/^SEAL MISSING: .*; the store refuses to open it$/) });
    expect(await verified(backing, null)).toMatchObject({ status: 1, said: expect.stringMatching(/^SEAL MISSING: /) });
  }, 60_000);
});

describe("a log begun by this version", () => {
  it(
    "starts its chain with a `sealed` record, so its tail cut with its seal and ledger " + "removed is refused, not taken for a log written before seals",
    async () => {
      const path = join(mkdtempSync(join(tmpdir(), "begun-sealed-")), "audit.jsonl");
      const key = new AuditSealKey(randomBytes(32));
      const store = new FileGuardStore(path, undefined, { sealKey: key });
      for (let index = 0; index < 5; index += 1) await store.append(record(`r${index}`));
      await store.close();
      const lines = readFileSync(path, "utf8").trim().split("\n");
      expect(lines.map((line) => (JSON.parse(line) as AuditRecord).event)).toEqual(["sealed", "dry_run", "dry_run", "dry_run", "dry_run", "dry_run"]);
      expect(JSON.parse(lines[0]!)).toMatchObject({ seq: 0, details: { reason: "first_seal", key_id: key.id, log: null } });

      writeFileSync(path, `${lines.slice(0, 3).join("\n")}\n`);
      rmSync(`${path}.seal`);
      rmSync(`${path}.ledger.json`);
      expect(() => new FileGuardStore(path, undefined, { sealKey: key })).toThrow(
        `audit log ${path}: its seal ${path}.seal is missing, but the log was sealed (record 0)`,
      );
    },
  );

  it("a running store whose log is removed with its seal and ledger refuses its next append rather than start a chain anew", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "begun-sealed-")), "audit.jsonl");
    const store = new FileGuardStore(path, undefined, { sealKey: new AuditSealKey(randomBytes(32)) });
    await store.append(record("r0"));
    for (const file of [path, `${path}.seal`, `${path}.ledger.json`]) rmSync(file, { force: true });
    await expect(store.append(record("r1"))).rejects.toThrow(`audit log ${path}: its seal ${path}.seal is missing (removed while the log was in use)`);
    await store.close();
  });
});

/** A key in a file, as the server and the extension keep it: its register is beside it. */
function keyInFile(): AuditSealKey {
  const keyPath = join(mkdtempSync(join(tmpdir(), "seal-key-")), "audit-seal.key");
  writeFileSync(keyPath, randomBytes(32), { mode: 0o600 });
  return readSealKeyFile(keyPath);
}

describe("the seal key's register of the logs it sealed", () => {
  it("a log removed whole, with its seal and ledger, is refused at open, naming the register; a reseal starts it again", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "removed-whole-")), "audit.jsonl");
    const key = keyInFile();
    await appended({ ...fileBackingAt(path) }, key, 3);
    for (const file of [path, `${path}.seal`, `${path}.ledger.json`]) rmSync(file);
    expect(() => new FileGuardStore(path, undefined, { sealKey: key })).toThrow(
      /says this log was sealed through record 3 .*but the log is missing and has no seal/,
    );
    expect(sealVerdict(path, key)).toMatchObject({ kind: "missing", reason: expect.stringMatching(/sealed through record 3 .*removed whole/) });
    await resealAuditLog(path, key);
    const store = new FileGuardStore(path, undefined, { sealKey: key });
    await store.append(record("after"));
    await store.close();
  });

  it("a log put back with an earlier copy of its seal and ledger is refused at open", async () => {
    const dir = mkdtempSync(join(tmpdir(), "put-back-"));
    const path = join(dir, "audit.jsonl");
    const key = keyInFile();
    await appended(fileBackingAt(path), key, 2);
    const copies = copiesOf(path);
    await appended(fileBackingAt(path), key, 2);
    for (const [file, content] of copies) writeFileSync(file, content);
    expect(() => new FileGuardStore(path, undefined, { sealKey: key })).toThrow(
      /says this log was sealed through record 4 .*but its seal .*\.seal says record 2 \(an earlier copy put back\?\)/,
    );
    expect(sealVerdict(path, key)).toMatchObject({ kind: "unauthentic", reason: expect.stringMatching(/an earlier copy put back/) });
  });

  it("a log put back with an earlier copy sealed at the same record as the log that replaced it is refused at open", async () => {
    const dir = mkdtempSync(join(tmpdir(), "same-record-"));
    const path = join(dir, "audit.jsonl");
    const key = keyInFile();
    await appended(fileBackingAt(path), key, 3);
    const copies = copiesOf(path);
    const copiedSeq = sealVerdict(path, key);
    // The log removed whole and started again by a person's reseal, then grown to the record its earlier copy was sealed at.
    for (const [file] of copies) rmSync(file);
    await resealAuditLog(path, key);
    const store = new FileGuardStore(path, undefined, { sealKey: key });
    for (let index = 0; sealVerdict(path, key).kind === "holds" && seqOf(sealVerdict(path, key)) < seqOf(copiedSeq); index += 1)
      await store.append(record(`again ${index}`));
    await store.close();
    expect(seqOf(sealVerdict(path, key))).toBe(seqOf(copiedSeq));
    for (const [file, content] of copies) writeFileSync(file, content);
    expect(() => new FileGuardStore(path, undefined, { sealKey: key })).toThrow(
      /says this log was sealed through record [0-9]+ \(hash [0-9a-f]{12}…\), but its seal .*\.seal says record [0-9]+ with hash [0-9a-f]{12}… \(another log's copy put back\?\)/,
    );
    expect(sealVerdict(path, key)).toMatchObject({ kind: "unauthentic", reason: expect.stringMatching(/another log's copy put back/) });
  });
});

describe("the seal key's register of the databases it sealed", () => {
  it("a database put back from an earlier copy, or put back and written since elsewhere, is refused at open and at a running store's next append; a reseal opens it again", async () => {
    const key = keyInFile();
    const url = cluster.createDatabase("restored");
    const name = url.split("/").at(-1) as string;
    const open = () => openPostgresGuardStore(url, { sealKey: key, retryForMs: 0 });
    const appendedBy = async (store: GuardStore, count: number, note: string) => {
      for (let index = 0; index < count; index += 1) await store.append(record(`${note} ${index}`));
      await store.close();
    };
    await appendedBy(await open(), 2, "before the backup");
    // The backup: the database copied whole (its seal row, derived rows and identity with it), as a restore brings it back.
    cluster.psql("postgres", `CREATE DATABASE ${name}_backup TEMPLATE ${name}`);
    // Replicas of this machine appending at once share one register: whichever writes it last, it is never ahead of the chain.
    const replicas = await Promise.all([open(), open(), open()]);
    await Promise.all(replicas.map((store, index) => appendedBy(store, 3, `replica ${index}`)));
    // Named by where the connection goes and the chain's schema, never the password.
    const registers = join(dirname(key.path as string), "sealed-logs");
    const [registerFile = ""] = readdirSync(registers);
    const register = readFileSync(join(registers, registerFile), "utf8");
    expect(register).not.toContain(cluster.password);
    expect(JSON.parse(register)).toMatchObject({ log: `postgres://postgres@127.0.0.1:${cluster.port}/${name}?schema=public` });
    // Opened before the restore, it appends none of the records the restore takes away (retrying through its cut connection).
    const running = await openPostgresGuardStore(url, { sealKey: key });
    cluster.psql("postgres", `DROP DATABASE ${name} WITH (FORCE)`);
    cluster.psql("postgres", `CREATE DATABASE ${name} TEMPLATE ${name}_backup`);

    const rolledBack = new RegExp(
      "the seal key's register .*/sealed-logs/[0-9a-f]{32}\\.json says this database's audit chain was sealed through record ([2-9]|10) " +
        "\\(hash [0-9a-f]{12}…\\), but the database's chain is sealed at record 1 \\(hash [0-9a-f]{12}…\\): it was rolled back " +
        "\\(the database put back from an earlier copy: .*\\) and lost the records after it; .*reseal-audit --store",
    );
    await expect(open()).rejects.toThrow(rolledBack);
    await expect(running.append(record("after the restore"))).rejects.toThrow(rolledBack);
    await running.close();
    expect(await verifySealedPostgresAudit(url, key)).toMatchObject({
      verdict: { ok: true, records: 2 },
      seal: { kind: "unauthentic", reason: expect.stringMatching(/sealed at record 1 .*rolled back \(the database put back from an earlier copy/) },
    });
    const said: string[] = [];
    expect(await verifyAuditCommand(url, (line) => said.push(line), key)).toBe(1);
    expect(said).toEqual([expect.stringMatching(/^SEAL NOT TRUSTED: the seal key's register .* says this database's audit chain was sealed through record/)]);

    // A replica of another machine (no register here) writes the restored chain past the record this register names.
    const elsewhere = await openPostgresGuardStore(url, { sealKey: new AuditSealKey(readFileSync(key.path as string)), retryForMs: 0 });
    await appendedBy(elsewhere, 10, "elsewhere");
    await expect(open()).rejects.toThrow(
      /says this database's audit chain was sealed through record ([2-9]|10) \(hash [0-9a-f]{12}…\), but the database holds another record there \(hash [0-9a-f]{12}…\): its chain differs/,
    );
    expect((await verifySealedPostgresAudit(url, key)).seal).toMatchObject({ kind: "unauthentic", reason: expect.stringMatching(/its chain differs/) });

    // A person looked: the reseal seals the chain as it is, and the register says so.
    const resealed = await resealPostgresAudit(url, key);
    expect(resealed).toMatchObject({ event: "sealed", seq: 12 });
    await appendedBy(await open(), 1, "after the reseal");
    expect((await verifySealedPostgresAudit(url, key)).seal).toMatchObject({ kind: "holds", seal: { seq: 13 }, authenticated: true });
  }, 60_000);
});

/** A log's files as they are now (the log, its seal, its ledger), to be put back. */
function copiesOf(path: string): (readonly [string, Buffer])[] {
  return [path, `${path}.seal`, `${path}.ledger.json`].map((file) => [file, readFileSync(file)] as const);
}

/** The record a verdict says the log is sealed at. */
function seqOf(verdict: SealVerdict): number {
  if (verdict.kind !== "holds") throw new Error(`the log's seal does not hold: ${JSON.stringify(verdict)}`);
  return verdict.seal.seq;
}

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
    expect(JSON.parse(readFileSync(path, "utf8").split("\n")[2]!)).toMatchObject({
      seq: 2,
      details: { reason: "first_seal", key_id: key.id, log: { seq: 1 } },
    });
  });

  it("a database's chain is sealed once, by the migration that brings seals; after it, records without a seal row are refused", async () => {
    const url = cluster.createDatabase("unsealed");
    const name = url.split("/").at(-1) as string;
    cluster.psql(
      name,
      "CREATE TABLE custody_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    for (const migration of MIGRATIONS.filter((each) => each.version < SEAL_VERSION)) {
      for (const statement of migration.statements) cluster.psql(name, statement);
      cluster.psql(name, `INSERT INTO custody_schema_migrations (version, name) VALUES (${migration.version}, '${migration.name}')`);
    }
    const old = sealAuditRecord(record("before seals"), { seq: 0, prevHash: "0".repeat(64) }, new Date());
    cluster.psql(
      name,
      "INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES (0, now(), " +
        `'dry_run', 'alice_ops', '${old.hash}', $line$${auditLine(old)}$line$)`,
    );
    const key = new AuditSealKey(randomBytes(32));
    const store = await openPostgresGuardStore(url, { sealKey: key });
    await store.close();
    expect(cluster.psql(name, "SELECT seq || ':' || event || ':' || operator FROM custody_audit ORDER BY seq").trim().split("\n")).toEqual([
      "0:dry_run:alice_ops",
      "1:sealed:",
    ]);
    expect(await verifySealedPostgresAudit(url, key)).toMatchObject({
      verdict: { ok: true, records: 2 },
      seal: { kind: "holds", seal: { seq: 1 }, authenticated: true },
    });
    cluster.psql(name, "DELETE FROM custody_audit_seal");
    await expect(openPostgresGuardStore(url, { sealKey: key })).rejects.toThrow(/the audit chain's seal is missing, but the chain was sealed \(record 1\)/);
  }, 60_000);
});
