import { closeSync, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { GENESIS_HASH, type AuditInput, type AuditRecord } from "./audit-entry.js";
import { auditLine, sealAuditRecord } from "./sealed-record.js";
import { AuditLedger, type Checkpoint } from "./audit-ledger.js";
import { ChainCheck, CHAIN_START, intactRecord } from "./chain-check.js";
import { withFileLock } from "./file-lock.js";
import { readLedgerFile, writeLedgerFile } from "./ledger-file.js";
import { forEachLineSync, lineEndingAt, type ReadCounter } from "./log-lines.js";

/** The saved ledger is rewritten once the log has grown this much past it (and on close): an opener catches up on at most about this much. */
const SAVE_EVERY_BYTES = 64 * 1024;

export interface AuditLogOptions {
  /** How long an append waits for the lock held by another live process before it fails naming it (default 10 s). */
  lockWaitMs?: number;
}


function brokenChain(path: string, line: number, reason: string): Error {
  return new Error(`audit log ${path} is not a valid chain (line ${line}: ${reason}); refusing to append to it`);
}

/**
 * An append-only JSONL audit log; each line carries the hash of the previous one, so a removed,
 * reordered or edited line breaks the chain. Each append is fsynced. Several processes may share
 * one log (an MCP server per client): an append takes the lock file and continues the chain from
 * the file's last line, not from what this process wrote last.
 *
 * No operation reads the log whole. Beside it, `<log>.ledger.json` holds a checkpoint (the last
 * line verified: sequence number, hash, length of the log through it) and the ledger of that
 * prefix. Opening verifies the checkpoint line itself and every line after it; each operation
 * reads only the lines appended since (by any process), checking that they continue the chain;
 * an append first compares the line at the checkpoint with the file again. A ledger that is
 * missing, unreadable, or whose checkpoint line is not the log's is rebuilt by one pass over the
 * log, which verifies it whole. `verify-audit` still checks every line.
 */
export class AuditLog {
  readonly #lockPath: string;
  readonly #ledgerPath: string;
  readonly #reads: ReadCounter = { bytesRead: 0 };
  #ledger: AuditLedger;
  #savedOffset = 0;
  /** The log file's identity: another file at the path (rotated, replaced) is read afresh. */
  #inode: number | null = null;

  constructor(
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
    private readonly options: AuditLogOptions = {},
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.#lockPath = `${path}.lock`;
    this.#ledgerPath = `${path}.ledger.json`;
    this.#ledger = this.#open();
  }

  /** Bytes of the log this instance has read: the whole log only when its ledger was rebuilt, else what was appended since. */
  get bytesRead(): number {
    return this.#reads.bytesRead;
  }

  async append(input: AuditInput): Promise<AuditRecord> {
    const record = await this.appendIf(input, () => true);
    if (record === null) throw new Error("unreachable: an unconditional append was refused");
    return record;
  }

  /**
   * Appends `input` only if `admit`, run under the log's lock on the ledger of the file as every
   * writer left it, returns true; returns null otherwise. No other writer (another process
   * included) can append between the check and the append, so two writers cannot both pass it.
   */
  appendIf(input: AuditInput, admit: (ledger: AuditLedger) => boolean): Promise<AuditRecord | null> {
    return this.withLock(() => {
      const ledger = this.#follow(true);
      if (!admit(ledger)) return null;
      const record = this.#write(ledger, input);
      this.#saveIfBehind(SAVE_EVERY_BYTES);
      return record;
    });
  }

  /** Runs `work` holding the log's lock (the lock every writer of the log and its side files takes). */
  withLock<T>(work: () => T | Promise<T>): Promise<T> {
    return withFileLock(this.#lockPath, work, this.options.lockWaitMs === undefined ? {} : { waitMs: this.options.lockWaitMs });
  }

  /** The ledger of every complete line the log holds now. Without the lock: a line another process is writing is left for later. */
  ledger(): AuditLedger {
    return this.#follow(false);
  }

  /** The log's clock: the time written on its records. */
  time(): Date {
    return this.now();
  }

  /** Saves the ledger if the log has grown past the saved one. */
  close(): void {
    this.#saveIfBehind(1);
  }

  #open(): AuditLedger {
    if (!existsSync(this.path)) return new AuditLedger();
    const saved = readLedgerFile(this.#ledgerPath);
    const checkpoint = saved?.checkpoint ?? null;
    if (saved === null || checkpoint === null || !this.#tailIs(checkpoint)) return this.#rebuild(false);
    this.#ledger = saved;
    this.#savedOffset = checkpoint.offset;
    this.#catchUp(false);
    this.#saveIfBehind(SAVE_EVERY_BYTES);
    return this.#ledger;
  }

  /** The ledger brought up to the file: caught up on new lines, or rebuilt when the file is not the one it describes. */
  #follow(locked: boolean): AuditLedger {
    let size: number;
    let inode: number;
    try {
      ({ size, ino: inode } = statSync(this.path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      if (this.#ledger.checkpoint !== null) this.#ledger = new AuditLedger();
      this.#inode = null;
      return this.#ledger;
    }
    const checkpoint = this.#ledger.checkpoint;
    const replaced = (this.#inode !== null && inode !== this.#inode) || size < (checkpoint?.offset ?? 0);
    this.#inode = inode;
    if (replaced || (locked && checkpoint !== null && !this.#tailIs(checkpoint))) return this.#rebuild(locked);
    if (size > (checkpoint?.offset ?? 0)) this.#catchUp(locked);
    return this.#ledger;
  }

  /** Whether the line at the checkpoint is intact and the one folded there (read backwards from there, not from the log's start). */
  #tailIs(checkpoint: Checkpoint): boolean {
    const line = lineEndingAt(this.path, checkpoint.offset, this.#reads);
    if (line === null) return false;
    const reading = intactRecord(line);
    return !("reason" in reading) && reading.record.seq === checkpoint.seq && reading.record.hash === checkpoint.hash;
  }

  #rebuild(locked: boolean): AuditLedger {
    this.#ledger = new AuditLedger();
    this.#catchUp(locked);
    this.#save();
    return this.#ledger;
  }

  /** Verifies and folds the lines after the checkpoint. Under the lock, bytes after the last "\n" are a line cut short. */
  #catchUp(locked: boolean): void {
    const ledger = this.#ledger;
    const from = ledger.checkpoint;
    const chain = new ChainCheck(from ?? CHAIN_START);
    const { remainder } = forEachLineSync(
      this.path,
      from?.offset ?? 0,
      (line) => {
        const reading = chain.next(line.text);
        if ("reason" in reading) throw brokenChain(this.path, chain.point.seq + 2, reading.reason);
        ledger.fold(reading.record, line.end);
      },
      this.#reads,
    );
    if (locked && remainder.length > 0) throw new Error(`audit log ${this.path}: its last line is not an intact audit record; refusing to append to it`);
  }

  #write(ledger: AuditLedger, input: AuditInput): AuditRecord {
    const tail = ledger.checkpoint;
    const record = sealAuditRecord(input, { seq: (tail?.seq ?? -1) + 1, prevHash: tail?.hash ?? GENESIS_HASH }, this.now());
    const line = `${auditLine(record)}\n`;
    const fd = openSync(this.path, "a");
    try {
      writeSync(fd, line);
      fsyncSync(fd);
      this.#inode = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    ledger.fold(record, (tail?.offset ?? 0) + Buffer.byteLength(line));
    return record;
  }

  #saveIfBehind(bytes: number): void {
    if ((this.#ledger.checkpoint?.offset ?? 0) - this.#savedOffset >= bytes) this.#save();
  }

  #save(): void {
    this.#ledger.prune();
    try {
      writeLedgerFile(this.#ledgerPath, this.#ledger);
      this.#savedOffset = this.#ledger.checkpoint?.offset ?? 0;
    } catch {
      // The ledger is derived from the log: one not saved is caught up or rebuilt by the next opener.
    }
  }
}
