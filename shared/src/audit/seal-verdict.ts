import { existsSync, statSync } from "node:fs";
import type { ChainPoint } from "./chain-check.js";
import { AuditSealError, readSealFile, unverifiedSeal } from "./seal-file.js";
import { isSealedLedgerFile, readLedgerFile } from "./ledger-file.js";
import { ledgerPathOf, logHolds, registerAhead, sealPathOf } from "./sealed-tail.js";
import { logRegisterName, registeredSeal } from "./sealed-log-register.js";
import type { AuditSealKey } from "./seal-key.js";

/** What a seal says: the last record's sequence number and hash, and for a file the log's length through it. */
export type SealedAt = ChainPoint & { offset?: number };

/** How a log (or a database's chain) compares with its seal, for verify-audit. */
export type SealVerdict =
  | { kind: "unsealed" }
  /** No seal, where the store shows it had one (a sealed ledger beside the log; a database's chain with records and no seal row): the store refuses it. */
  | { kind: "missing"; reason: string }
  /** The log holds the sealed line; `authenticated` when the key checked the seal's MAC. */
  | { kind: "holds"; seal: SealedAt; authenticated: boolean; keyId: string }
  /** The log is shorter than its seal says: records were cut from its end (`bytes`: a file's length). */
  | { kind: "shortened"; seal: SealedAt; bytes?: number }
  /** Another record is where the sealed one was. */
  | { kind: "differs"; seal: SealedAt }
  /** Records follow the sealed last record that no append sealed (a database's chain: every append seals its own record). */
  | { kind: "extended"; seal: SealedAt }
  /** The seal itself cannot be trusted (another key, edited, unreadable). */
  | { kind: "unauthentic"; reason: string };

/**
 * Compares a log with its seal, and its ledger with its MAC, as an opener of the store does. With a
 * key, a seal or ledger made with another key or not matching its MAC is not trusted; with no key,
 * what the seal says is compared unchecked (and said to be): the length and the sealed line are
 * what show a shortened log. A missing seal beside a sealed ledger is `missing`; one whose chain
 * holds a `sealed` record is found by the caller, which reads the chain. With a key read from a
 * file, its register of the logs it sealed too: a log removed whole is `missing`, a seal behind the
 * register (an earlier copy put back) `unauthentic`, as the opener refuses them.
 */
export function sealVerdict(log: string, key: AuditSealKey | null): SealVerdict {
  // Read first, as an opener does: a writer writes the seal, then the register.
  const registered = key === null ? null : registeredSeal(key, logRegisterName(log));
  const sealPath = sealPathOf(log);
  const bytes = existsSync(log) ? statSync(log).size : 0;
  if (!existsSync(sealPath)) {
    const ledger = ledgerPathOf(log);
    const behind = registerAhead(registered, log, null, bytes);
    if (behind !== null) return { kind: "missing", reason: behind };
    return isSealedLedgerFile(ledger) ? { kind: "missing", reason: `${sealPath} is missing, but its ledger ${ledger} is sealed` } : { kind: "unsealed" };
  }
  const raw = unverifiedSeal(sealPath);
  if (raw === null) return { kind: "unauthentic", reason: `${sealPath} is not a seal this program wrote` };
  const checkable = key !== null;
  try {
    if (checkable) {
      readSealFile(sealPath, key, log);
      readLedgerFile(ledgerPathOf(log), key, log);
    }
  } catch (error) {
    if (error instanceof AuditSealError) return { kind: "unauthentic", reason: error.message };
    throw error;
  }
  const seal = { seq: raw.seq, hash: raw.hash, offset: raw.offset };
  const behind = registerAhead(registered, log, seal, bytes);
  if (behind !== null) return { kind: "unauthentic", reason: behind };
  if (bytes < seal.offset) return { kind: "shortened", seal, bytes };
  if (!logHolds(log, seal)) return { kind: "differs", seal };
  return { kind: "holds", seal, authenticated: checkable, keyId: raw.key_id };
}
