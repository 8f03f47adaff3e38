import { randomBytes } from "node:crypto";
import { AuditSealKey, type GuardStore, type ReservationRequest } from "@custody/shared";
import { openPostgresGuardStore, resealPostgresAudit, verifySealedPostgresAudit } from "@custody/shared/postgres-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";
import { reservation } from "./guard-store-behaviours.js";

// Issue 18, PostgreSQL's derived tables: the seal covers the chain, and the rows the daily limit
// and the duplicate check read (custody_commitments, custody_write_traces) are checked against
// the chain's own records, so a DELETE or UPDATE of them resets nothing unnoticed.

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
}, 120_000);
afterAll(() => cluster?.stop());

const key = new AuditSealKey(randomBytes(32));

async function database(): Promise<{ url: string; psql: (sql: string) => string; open: () => Promise<GuardStore> }> {
  const url = cluster.createDatabase("derived");
  const name = url.split("/").at(-1) as string;
  return { url, psql: (sql) => cluster.psql(name, sql), open: () => openPostgresGuardStore(url, { sealKey: key, retryForMs: 0 }) };
}

/** A reservation counting the last day only, as the road's are. */
function today(request: ReservationRequest): ReservationRequest {
  const since = new Date(Date.now() - 24 * 3_600_000);
  return { ...request, duplicatesSince: since, limits: request.limits.map((limit) => ({ ...limit, since })) };
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
      await expect(store.reserve(today(reservation("cw-2", 5n)))).rejects.toThrow(/the audit chain's window starts at record [0-9]+, which .*reseal-audit/);
      await store.close();
      await expect(db.open()).rejects.toThrow(/the audit chain's window starts at record [0-9]+/);
    },
  );

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
