import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { GENESIS_HASH } from "../../src/index.js";

export interface GeneratedLogOptions {
  /** Records to write (a write takes four: dry_run, confirmed, reserved, submitted). */
  records: number;
  /** The records' times, spread evenly from the first to the last (milliseconds since the epoch). */
  fromMs: number;
  toMs: number;
  /** Writes go round these operators, and each operator's round these currencies; each write reserves `amount` base units. */
  operators: readonly string[];
  currencies: readonly string[];
  amount: bigint;
}

export interface GeneratedLog {
  records: number;
  bytes: number;
  lastHash: string;
}

const EVENTS = ["dry_run", "confirmed", "reserved", "submitted"] as const;
const FLUSH_BYTES = 4 << 20;

/**
 * Writes a valid audit log quickly, as canonical JSON lines each carrying the hash of the one
 * before: a log of a million records in seconds instead of a million appends. The lines are built
 * with the keys already in canonical (sorted) order; verifyAuditLog is the check that they are
 * exactly what AuditLog writes.
 */
export function writeGeneratedLog(path: string, options: GeneratedLogOptions): GeneratedLog {
  const fd = openSync(path, "w");
  let previous = GENESIS_HASH;
  let bytes = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => {
    const text = pending.join("");
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
    pending = [];
    pendingBytes = 0;
  };
  try {
    const step = options.records > 1 ? (options.toMs - options.fromMs) / (options.records - 1) : 0;
    for (let seq = 0; seq < options.records; seq += 1) {
      const write = Math.floor(seq / EVENTS.length);
      const event = EVENTS[seq % EVENTS.length] as (typeof EVENTS)[number];
      const operator = JSON.stringify(options.operators[write % options.operators.length]);
      const currency = JSON.stringify(options.currencies[Math.floor(write / options.operators.length) % options.currencies.length]);
      const reference = `"cw-gen-${write}"`;
      const fingerprint = `"${write.toString(16).padStart(64, "0")}"`;
      const amount = `"${options.amount}"`;
      const details =
        event === "dry_run"
          ? `{"fingerprint":${fingerprint}}`
          : event === "confirmed"
            ? `{"reference":${reference}}`
            : event === "reserved"
              ? `{"currency":${currency},"fingerprint":${fingerprint},"policy_amount":${amount},"reference":${reference}}`
              : `{"currency":${currency},"policy_amount":${amount},"reference":${reference}}`;
      const at = new Date(Math.round(options.fromMs + seq * step)).toISOString();
      const head = `{"at":"${at}","details":${details},"event":"${event}",`;
      const tail =
        `"operator":${operator},"prev_hash":"${previous}","request_digest":null,"seq":${seq},"surface":"mcp",` +
        `"tool":"create_transaction"${event === "submitted" ? `,"transaction_id":${write + 1}` : ""}}`;
      const hash = createHash("sha256").update(head).update(tail).digest("hex");
      const line = `${head}"hash":"${hash}",${tail}\n`;
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= FLUSH_BYTES) flush();
      previous = hash;
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { records: options.records, bytes, lastHash: previous };
}
