import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isRefusedFile, readOwnText } from "../files/own-file.js";
import { replaceWhole } from "../files/whole-file.js";
import { z } from "zod";
import { canonicalJson } from "./canonical-json.js";
import type { ChainPoint } from "./chain-check.js";
import type { AuditSealKey } from "./seal-key.js";

const FORMAT = "custody-sealed-log/1";
const MAC_DOMAIN = "custody sealed log register";

/** A register is a few hundred bytes (the store's name at most a few KB of it); a longer file is not one this program wrote. */
export const REGISTER_MAX_BYTES = 64 * 1024;

const RegisterFile = z.object({
  format: z.literal(FORMAT),
  log: z.string(),
  host: z.string(),
  sealed: z.object({ seq: z.int().nonnegative(), hash: z.string() }),
  mac: z.string(),
});

/** The name a register knows a log by: its absolute path, as registers have named logs from the start. */
export function logRegisterName(log: string): string {
  return resolve(log);
}

/**
 * Where a key kept in a file records that it sealed a store (issue 18): `sealed-logs/` beside the
 * key (the token secret's folder by default, never the log's), one file per host and store, the
 * store named by `store` (logRegisterName; a database by chainRegisterName, never its password). A
 * store removed whole with its seal, or put back with an earlier seal, no longer looks like a new
 * one or the last one. Null for a key not read from a file (a test's).
 */
export function registerPathOf(key: AuditSealKey, store: string): string | null {
  if (key.path === null) return null;
  const id = createHash("sha256").update(`${hostname()}\0${store}`).digest("hex").slice(0, 32);
  return join(dirname(key.path), "sealed-logs", `${id}.json`);
}

/** What a key's register says it last sealed of a store, and where the register is. */
export type RegisteredSeal = ChainPoint & { path: string };

/**
 * What the key's register says it last sealed of the store; null when it says nothing (or nothing this key wrote), as when it
 * is not a file this program writes (a link, a pipe, a device, too long): not read, as one cut short.
 */
export function registeredSeal(key: AuditSealKey, store: string): RegisteredSeal | null {
  const path = registerPathOf(key, store);
  if (path === null) return null;
  let raw: unknown;
  try {
    const text = readOwnText(path, { what: "seal key register", maxBytes: REGISTER_MAX_BYTES });
    raw = text === null || isRefusedFile(text) ? null : JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = RegisterFile.safeParse(raw);
  if (!parsed.success) return null;
  const { mac, ...said } = parsed.data;
  // Another key's register (the key replaced) says nothing this key can check: a reseal writes it again.
  return key.verifies(MAC_DOMAIN, canonicalJson(said), mac) ? { ...said.sealed, path } : null;
}

/**
 * Records the store's newly sealed last record, after its seal is written (a log's seal file, a
 * database's committed transaction: a crash leaves the register behind the seal, never ahead of
 * it). Not synced: a register lost with a power cut says less, never something false. A key folder
 * that cannot be written (a read-only shared key) keeps no register: that store keeps the gap
 * this closes, as before.
 */
export function registerSeal(key: AuditSealKey, store: string, point: ChainPoint): void {
  const path = registerPathOf(key, store);
  if (path === null) return;
  // `log` names the store, whatever it is: the field of the format's first version.
  const said = { format: FORMAT, log: store, host: hostname(), sealed: { seq: point.seq, hash: point.hash } };
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    replaceWhole(path, JSON.stringify({ ...said, mac: key.mac(MAC_DOMAIN, canonicalJson(said)) }), { mode: 0o600 });
  } catch (error) {
    if (!["EACCES", "EPERM", "EROFS"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
}
