import { auditLine, sealAuditRecord, type AuditSealKey } from "@custody/shared";
import { openPostgresGuardStore, writeTableSeal } from "@custody/shared/postgres-store";
import pg from "pg";
import type { PostgresCluster } from "../../support/postgres-cluster.js";

/** Rows inserted per statement: each stays well within psql's time allowance. */
const CHUNK = 100_000;

/**
 * Fills a database's store with `records` audit records spread over the past year, as a team's
 * would hold them (four records a write: dry run, confirmation, reservation, submission; a tenth of
 * the writes by `operator`, the rest by 100 others) and ending 26 hours ago, with the write traces and committed amounts
 * their appends would have kept: inserted by SQL (generate_series), not through the server. Only
 * the last record, the one a store reads whole when it opens, and the one before the day, which the
 * day's first links to, are real; the others are of a
 * real record's size; the chain is sealed at it with `sealKey`, as its append would have. Returns the
 * milliseconds it took.
 */
export async function seedMillionRecords(cluster: PostgresCluster, url: string, records: number, operator: string, sealKey: AuditSealKey): Promise<number> {
  const started = Date.now();
  await (await openPostgresGuardStore(url, { sealKey })).close();
  const database = url.split("/").at(-1) as string;
  const writes = Math.floor(records / 4);
  // Ending 26 hours ago: the seeded records are not a chain, and the store checks the day's derived rows against the day's chain.
  const at = (index: string, total: number) => `now() - interval '26 hours' - interval '365 days' + interval '365 days' * ${index} / ${total}`;
  const owner = (write: string) => `CASE WHEN ${write} % 10 = 0 THEN '${operator}' ELSE 'op-' || (${write} % 100) END`;
  for (let from = 0; from < records - 2; from += CHUNK) {
    const to = Math.min(records - 3, from + CHUNK - 1);
    cluster.psql(
      database,
      "SET synchronous_commit = off;\n" +
        "       INSERT INTO custody_audit (seq, at, event, operator, hash, line)\n" +
        `       SELECT s, ${at("s", records)}, (ARRAY['dry_run','confirmed','reserved','submitted'])[s % 4 + 1], ` +
        `${owner("(s / 4)")}, encode(sha256(s::text::bytea), 'hex'),\n` +
        "         " +
        'format(\'{"at":"%s","checks":[{"code":"POLICY_MAX_PER_DAY_OK","severity":"info"},' +
        '{"code":"RECIPIENT_ADDRESS_VALID","severity":"info"}],"details":{"currency":"solana_testnet",' +
        '"fingerprint":"%s","policy_amount":"%s","reference":"cw-seed-%s"},"event":"%s","hash":"%s","operator":"%s",' +
        '"prev_hash":"%s","request":{"account":"sol-treasury","amount":"%s","kind":"send","max_fees":"7500",' +
        '"recipient":"DBXLDrUVoTGaqts7Q1fkdMqENp8h7Knz6vQpkmYTbTQf","speed":"NORMAL"},"request_digest":"%s","seq":%s,' +
        '"surface":"mcp","tool":"create_transaction"}\',\n' +
        `           ${at("s", records)}, md5((s / 4)::text) || md5((s / 4)::text), 1000 + s % 1000, s / 4, ` +
        "(ARRAY['dry_run','confirmed','reserved','submitted'])[s % 4 + 1],\n" +
        `           encode(sha256(s::text::bytea), 'hex'), ${owner("(s / 4)")}, encode(sha256((s - 1)::text::bytea), ` +
        "'hex'), 1000 + s % 1000, md5(s::text) || md5(s::text), s)\n" +
        `       FROM generate_series(${from}, ${to}) s;`,
    );
  }
  cluster.psql(
    database,
    "SET synchronous_commit = off;\n" +
      "     INSERT INTO custody_write_traces (reference, operator, fingerprint, tool, reserved_at, status, " +
      "transaction_id, repeat_of)\n" +
      `       SELECT 'cw-seed-' || w, ${owner("w")}, md5(w::text) || md5(w::text), 'create_transaction', ` +
      `${at("w", writes)}, 'submitted', 1000000 + w, NULL FROM generate_series(0, ${writes - 1}) w;\n` +
      "     INSERT INTO custody_commitments (operator, key, currency, amount, last_at)\n" +
      `       SELECT ${owner("w")}, 'cw-seed-' || w, 'solana_testnet', 1000 + w % 1000, ${at("w", writes)} FROM ` +
      `generate_series(0, ${writes - 1}) w;`,
  );
  // The record before the day and the last are real: the day's first record must link to the one before it.
  const beforeDay = sealAuditRecord(
    { event: "dry_run", surface: "mcp", operator, tool: "create_transaction", request_digest: null, details: { seeded: records } },
    { seq: records - 2, prevHash: cluster.psql(database, `SELECT hash FROM custody_audit WHERE seq = ${records - 3}`).trim() },
    new Date(Date.now() - 26 * 3_600_000),
  );
  const last = sealAuditRecord(
    { event: "dry_run", surface: "mcp", operator, tool: "create_transaction", request_digest: null, details: { seeded: records } },
    { seq: records - 1, prevHash: beforeDay.hash },
    new Date(),
  );
  cluster.psql(
    database,
    `INSERT INTO custody_audit (seq, at, event, operator, hash, line) VALUES
       (${beforeDay.seq}, '${beforeDay.at}', 'dry_run', '${operator}', '${beforeDay.hash}', $line$${auditLine(beforeDay)}$line$),
       (${last.seq}, now(), 'dry_run', '${operator}', '${last.hash}', $line$${auditLine(last)}$line$)`,
  );
  const sealer = new pg.Pool({ connectionString: url });
  await writeTableSeal(sealer, sealKey, last);
  await sealer.end();
  cluster.psql(database, "VACUUM ANALYZE");
  return Date.now() - started;
}
