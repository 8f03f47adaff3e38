import { isRefusedFile, readOwnText } from "../files/own-file.js";
import { replaceWhole } from "../files/whole-file.js";
import { z } from "zod";
import { WriteTraceEntry } from "./write-traces.js";
import { AuditLedger } from "./audit-ledger.js";
import { canonicalJson } from "./canonical-json.js";
import { AuditSealError, resealHint } from "./seal-file.js";
import { keyIdSaid, type AuditSealKey } from "./seal-key.js";

// Version 2 keeps each write's person; version 3 is sealed (a MAC of its content with the seal key);
// version 4 keeps each trace whole (its recognition and given_up, which version 3 dropped on reading);
// version 5 keeps each trace's look-ups (their number and the last), which version 4 drops on reading;
// version 6 keeps whom each trace's write was made for (its person's subject), which version 5 drops on reading;
// version 7 keeps the request each person-mode trace's dry run kept, which version 6 drops on reading;
// version 8 keeps what came back from each unclear POST (its `answer`), which version 7 drops on reading, and the conclusion
// of a write never answered that a look-up concluded (its `concluded_at`), which version 7's fold did not make.
// A ledger of another version is rebuilt from the log, both ways: an older program would save one
// without persons, seal or recognitions, and this one must not trust it.
const FORMAT = "custody-audit-ledger/8";
const MAC_DOMAIN = "custody audit ledger";
const Hash = z.string().regex(/^[0-9a-f]{64}$/);

const LedgerFile = z.object({
  format: z.literal(FORMAT),
  checkpoint: z.object({ seq: z.int().nonnegative(), hash: Hash, offset: z.int().positive() }).nullable(),
  newest_ms: z.number().nullable(),
  pruned_before_ms: z.number().nullable(),
  committed: z.array(
    z.object({
      operator: z.string(),
      person: z.string().nullable(),
      team: z.boolean(),
      key: z.string(),
      currency: z.string(),
      amount: z.string().regex(/^[0-9]+$/),
      latest_ms: z.number(),
    }),
  ),
  traces: z.array(WriteTraceEntry),
});

/**
 * A ledger longer than this is not read (it is rebuilt from the log, as one cut short is): it holds a day's totals and write
 * traces (LEDGER_KEEPS_MS), about a kilobyte a write, so this is tens of thousands of writes a day with room to spare.
 */
export const LEDGER_MAX_BYTES = 64 * 1024 * 1024;

/** The ledger's text; null when there is none or it is not the file this program writes (a link, a pipe, a device, too long). */
function ledgerText(path: string): string | null {
  try {
    const text = readOwnText(path, { what: "audit ledger", maxBytes: LEDGER_MAX_BYTES });
    return isRefusedFile(text) ? null : text;
  } catch {
    return null;
  }
}

const LedgerSeal = z.object({ key_id: z.string(), mac: z.string() });

/**
 * The ledger saved beside a log, or null when there is none or it is not one of this version (it
 * is then rebuilt from the log). One of this version that its MAC does not match (edited, or
 * sealed with another key) is an AuditSealError: the store stops rather than trust or drop it.
 */
export function readLedgerFile(path: string, key: AuditSealKey, log: string): AuditLedger | null {
  const text = ledgerText(path);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const seal = LedgerSeal.safeParse(raw);
  const content = LedgerFile.safeParse(raw);
  if (!seal.success || !content.success) return null;
  // The MAC covers the file as written (every field, known to this version or not), not what this version reads of it.
  const { key_id, mac, ...written } = raw as Record<string, unknown>;
  if (seal.data.key_id !== key.id)
    throw new AuditSealError(
      `audit log ${log}: its ledger ${path} was sealed with another key (key id ${keyIdSaid(key_id)}; this key's id is ${key.id}); ${resealHint(log)}`,
    );
  if (!key.verifies(MAC_DOMAIN, canonicalJson(written), String(mac))) {
    throw new AuditSealError(`audit log ${log}: its ledger ${path} does not match its seal (its totals or write traces were edited); ${resealHint(log)}`);
  }
  const parsed = content.data;
  return AuditLedger.restore({
    checkpoint: parsed.checkpoint,
    newestMs: parsed.newest_ms,
    prunedBeforeMs: parsed.pruned_before_ms,
    committed: parsed.committed.map(({ latest_ms, amount, ...entry }) => ({ ...entry, amount: BigInt(amount), latestMs: latest_ms })),
    traces: parsed.traces,
  });
}

/** Whether the file is a ledger of this version carrying a seal (unchecked: for verify-audit, which may have no key). */
export function isSealedLedgerFile(path: string): boolean {
  let raw: unknown;
  try {
    raw = JSON.parse(ledgerText(path) ?? "");
  } catch {
    return false;
  }
  return LedgerSeal.safeParse(raw).success && LedgerFile.safeParse(raw).success;
}

/**
 * Saves the ledger whole, under a name of its own then renamed over the old one: a reader finds
 * the old ledger or the new one. Not fsynced: a ledger lost or cut short by a crash is rebuilt.
 */
export function writeLedgerFile(path: string, ledger: AuditLedger, key: AuditSealKey): void {
  const state = ledger.state();
  const file: z.infer<typeof LedgerFile> = {
    format: FORMAT,
    checkpoint: state.checkpoint,
    newest_ms: state.newestMs,
    pruned_before_ms: state.prunedBeforeMs,
    committed: state.committed.map(({ latestMs, amount, ...entry }) => ({ ...entry, amount: amount.toString(), latest_ms: latestMs })),
    traces: state.traces,
  };
  const written = JSON.parse(JSON.stringify(file)) as Record<string, unknown>;
  replaceWhole(path, JSON.stringify({ ...written, key_id: key.id, mac: key.mac(MAC_DOMAIN, canonicalJson(written)) }));
}
