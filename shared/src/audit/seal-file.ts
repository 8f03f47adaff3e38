import { isRefusedFile, readOwnText, type RefusedFile } from "../files/own-file.js";
import { replaceWhole } from "../files/whole-file.js";
import { z } from "zod";
import { canonicalJson } from "./canonical-json.js";
import { SEAL_KEY_ID, type AuditSealKey } from "./seal-key.js";

const FORMAT = "custody-audit-seal/1";
const MAC_DOMAIN = "custody audit log seal";

/** The log's last line as sealed: sequence number, hash, and the log's length through it. */
export const SealedPoint = z.object({ seq: z.int().nonnegative(), hash: z.string().regex(/^[0-9a-f]{64}$/), offset: z.int().positive() });
export type SealedPoint = z.infer<typeof SealedPoint>;

/** A seal is about 300 bytes; a longer file is not one this program wrote, and is not read. */
export const SEAL_MAX_BYTES = 64 * 1024;

// A key id is said in messages and records (a reseal's, verify-audit's): only one as a key makes it is taken.
const SealFile = z.object({ format: z.literal(FORMAT), key_id: z.string().regex(SEAL_KEY_ID), checkpoint: SealedPoint, mac: z.string() });

/** A store that does not match its seal: it stops every user of the store until a person has looked and resealed it. */
export class AuditSealError extends Error {
  override readonly name = "AuditSealError";
}

export function resealHint(target: string): string {
  return `a person must find out what happened to it, then run: custody-mcp reseal-audit ${target}`;
}

/**
 * The seal beside a log (`<log>.seal`), checked with the key: null when there is none. A seal
 * that cannot be read, was made with another key or does not match its MAC is an AuditSealError.
 */
export function readSealFile(path: string, key: AuditSealKey, log: string): SealedPoint | null {
  const raw = readRawSeal(path);
  if (raw === null) return null;
  if (isRefusedFile(raw)) throw new AuditSealError(`audit log ${log}: its ${raw.reason}; ${resealHint(log)}`);
  const parsed = SealFile.safeParse(raw);
  if (!parsed.success) throw new AuditSealError(`audit log ${log}: its seal ${path} is not a seal this program wrote; ${resealHint(log)}`);
  const { mac, ...sealed } = parsed.data;
  if (sealed.key_id !== key.id)
    throw new AuditSealError(
      `audit log ${log}: its seal ${path} was made with another key (key id ${sealed.key_id}; this key's id is ${key.id}); ${resealHint(log)}`,
    );
  if (!key.verifies(MAC_DOMAIN, canonicalJson(sealed), mac))
    throw new AuditSealError(`audit log ${log}: its seal ${path} does not match its MAC (it was edited); ${resealHint(log)}`);
  return sealed.checkpoint;
}

/** What a seal file says, unchecked (for a reseal's record of what it replaced); null when absent or not a seal. */
export function unverifiedSeal(path: string): (SealedPoint & { key_id: string }) | null {
  const raw = readRawSeal(path);
  const parsed = SealFile.safeParse(isRefusedFile(raw) ? null : raw);
  return parsed.success ? { ...parsed.data.checkpoint, key_id: parsed.data.key_id } : null;
}

/**
 * Seals the log's last line: written whole under a name of its own, synced, then renamed over the
 * old seal, so a power loss leaves the old seal or the new one, never an empty one that would stop
 * the store until a person reseals it.
 */
export function writeSealFile(path: string, key: AuditSealKey, checkpoint: SealedPoint): void {
  const sealed = { format: FORMAT, key_id: key.id, checkpoint: { seq: checkpoint.seq, hash: checkpoint.hash, offset: checkpoint.offset } };
  replaceWhole(path, JSON.stringify({ ...sealed, mac: key.mac(MAC_DOMAIN, canonicalJson(sealed)) }), { mode: 0o600, sync: true });
}

/** The seal's JSON; null when there is none; refused when it is not the file this program writes (a link, a pipe, a device, too long). */
function readRawSeal(path: string): unknown {
  const text: string | RefusedFile | null = readOwnText(path, { what: "seal", maxBytes: SEAL_MAX_BYTES });
  if (text === null || isRefusedFile(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return { unreadable: true };
  }
}
