import { CHAIN_START, type ChainPoint } from "../audit/chain-check.js";
import { canonicalJson } from "../audit/canonical-json.js";
import { AuditSealError, resealHint } from "../audit/seal-file.js";
import type { AuditSealKey } from "../audit/seal-key.js";
import type { Queryable } from "./database-pool.js";
import { registerAheadOfChain, registeredChainSeal } from "./chain-register.js";

const MAC_DOMAIN = "custody audit table seal";

/** The seal row of a chain, unchecked (for a reseal's record, and verify-audit without a key); null when there is none. */
export async function unverifiedTableSeal(db: Queryable): Promise<(ChainPoint & { key_id: string; mac: string }) | null> {
  const { rows } = await db.query<{ seq: string; hash: string; key_id: string; mac: string }>(
    "SELECT seq, hash, key_id, mac FROM custody_audit_seal WHERE id = 1",
  );
  const row = rows[0];
  return row === undefined ? null : { seq: Number(row.seq), hash: row.hash, key_id: row.key_id, mac: row.mac };
}

const RESEAL = resealHint("--store <the database>");

/** The seal row checked with the key: null when there is none; another key's or an edited one is an AuditSealError. */
export async function tableSeal(db: Queryable, key: AuditSealKey): Promise<ChainPoint | null> {
  const seal = await unverifiedTableSeal(db);
  if (seal === null) return null;
  if (seal.key_id !== key.id)
    throw new AuditSealError(`the audit chain's seal was made with another key (key id ${seal.key_id}; this key's id is ${key.id}); ${RESEAL}`);
  if (!key.verifies(MAC_DOMAIN, canonicalJson({ seq: seal.seq, hash: seal.hash }), seal.mac))
    throw new AuditSealError(`the audit chain's seal does not match its MAC (it was edited); ${RESEAL}`);
  return { seq: seal.seq, hash: seal.hash };
}

/**
 * Whether the chain holds its sealed record as its last: "shortened" when its last record is below it,
 * "differs" when another record has its sequence number, "extended" when records follow it (every
 * append seals its record in its own transaction, so a record after the seal was written some other
 * way), else "holds".
 */
export async function chainAgainstSeal(db: Queryable, seal: ChainPoint): Promise<"holds" | "shortened" | "differs" | "extended"> {
  // The empty chain's seal (CHAIN_START), made when the store created the chain.
  if (seal.seq === CHAIN_START.seq) return seal.hash !== CHAIN_START.hash ? "differs" : (await lastSeq(db)) > seal.seq ? "extended" : "holds";
  const { rows } = await db.query<{ hash: string }>("SELECT hash FROM custody_audit WHERE seq = $1", [seal.seq]);
  if (rows[0] === undefined) return (await lastSeq(db)) < seal.seq ? "shortened" : "differs";
  if (rows[0].hash !== seal.hash) return "differs";
  return (await lastSeq(db)) > seal.seq ? "extended" : "holds";
}

/** The chain's last record's sequence number, or -1 for an empty chain. */
async function lastSeq(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ seq: string | null }>("SELECT max(seq)::text AS seq FROM custody_audit");
  return rows[0]?.seq == null ? -1 : Number(rows[0].seq);
}

/** The seq of the newest `sealed` record, or null: a chain that has one was sealed. */
async function lastSealRecord(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ seq: string }>("SELECT seq FROM custody_audit WHERE event = 'sealed' ORDER BY seq DESC LIMIT 1");
  return rows[0] === undefined ? null : Number(rows[0].seq);
}

/**
 * Before an append, under the chain's lock: the chain holds its seal (checked with the key), so
 * no append ever seals over records cut from its end. A chain without a seal row may be appended
 * to only by its first `sealed` record (an unsealed chain from before seals). An empty chain is
 * sealed too (at CHAIN_START, when the store creates it): one without a seal row had its records
 * and seal deleted, with the derived rows a reset of the daily limits, unless a person seals it.
 * With `registerName` (chainRegisterName), the seal is no earlier than the key's register says
 * (the database put back with an earlier seal row). Returns the sealed last record, or null when
 * the chain has no seal row.
 */
export async function requireSealedChain(db: Queryable, key: AuditSealKey, firstSeal: boolean, registerName: string | null = null): Promise<ChainPoint | null> {
  // The register before the seal row: a writer commits, then writes the register, so one read first is never ahead of the row read after it.
  const registered = registeredChainSeal(key, registerName);
  const seal = await tableSeal(db, key);
  if (seal === null) {
    const sealedAt = await lastSealRecord(db);
    if (sealedAt !== null) throw new AuditSealError(`the audit chain's seal is missing, but the chain was sealed (record ${sealedAt}); ${RESEAL}`);
    if (firstSeal) return null;
    if ((await lastSeq(db)) >= 0) throw new AuditSealError(`the audit chain has records but no seal; ${RESEAL}`);
    throw new AuditSealError(
      "the audit chain has neither records nor a seal: the store seals its chain when it creates it, empty too, so its records " +
        `and seal were deleted (a database never written since an older version created it is sealed the same way); ${RESEAL}`,
    );
  }
  const standing = await chainAgainstSeal(db, seal);
  if (standing === "shortened") {
    throw new AuditSealError(
      `the audit chain was shortened: its last record is ${await lastSeq(db)}, below its sealed ` +
        `high-water mark, record ${seal.seq} (hash ${seal.hash.slice(0, 12)}…); ${RESEAL}`,
    );
  }
  if (standing === "differs") throw new AuditSealError(`the audit chain does not hold its sealed record ${seal.seq}: another record has its number; ${RESEAL}`);
  if (standing === "extended") throw recordsAfterSeal(seal.seq, await lastSeq(db));
  const behind = await registerAheadOfChain(db, registered, seal);
  if (behind !== null) throw new AuditSealError(`${behind}; ${RESEAL}`);
  return seal;
}

/** Records follow the sealed last one: every append seals its record in its own transaction, so none of the guard's wrote them. */
export function recordsAfterSeal(sealedSeq: number, lastSeq: number): AuditSealError {
  return new AuditSealError(
    `the audit chain has records after its sealed last record ${sealedSeq} (up to record ${lastSeq}): no append of the guard wrote them; ${RESEAL}`,
  );
}

/** Seals the chain's new last record, in the append's transaction. */
export async function writeTableSeal(db: Queryable, key: AuditSealKey, point: ChainPoint): Promise<void> {
  const mac = key.mac(MAC_DOMAIN, canonicalJson({ seq: point.seq, hash: point.hash }));
  await db.query(
    "INSERT INTO custody_audit_seal (id, seq, hash, key_id, mac) VALUES (1, $1, $2, " +
      "$3, $4) ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, hash = " +
      "EXCLUDED.hash, key_id = EXCLUDED.key_id, mac = EXCLUDED.mac",
    [point.seq, point.hash, key.id, mac],
  );
}
