import { closeSync, constants, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { GENESIS_HASH, type AuditInput, type AuditRecord } from "./audit-entry.js";
import { auditLine, sealAuditRecord } from "./sealed-record.js";
import { AuditLedger, type Checkpoint } from "./audit-ledger.js";
import { ChainCheck, CHAIN_START } from "./chain-check.js";
import { withFileLock } from "./file-lock.js";
import { writeLedgerFile } from "./ledger-file.js";
import { sealedRecordInput } from "./seal-record-input.js";
import { forEachLineSync, type ReadCounter } from "./log-lines.js";
import { AuditSealError, resealHint, unverifiedSeal, writeSealFile, type SealedPoint } from "./seal-file.js";
import { logRegisterName, registerSeal } from "./sealed-log-register.js";
import { checkSealedTail, ledgerPathOf, logHolds, sealedStart, sealPathOf } from "./sealed-tail.js";
import { defaultSealKeyPath, sealKeyFromFile, type AuditSealKey } from "./seal-key.js";

/** The saved ledger is rewritten once the log has grown this much past it (and on close): an opener catches up on at most about this much. */
const SAVE_EVERY_BYTES = 64 * 1024;

export interface AuditLogOptions {
  /** How long an append waits for the lock held by another live process before it fails naming it (default 10 s). */
  lockWaitMs?: number;
  /** The key the log's tail and ledger are sealed with; default: the one in defaultSealKeyPath() (created if missing). */
  sealKey?: AuditSealKey;
  /** Open without checking the seal, for a person's reseal (resealAuditLog): the first append under the lock seals the log as it is. */
  resealing?: boolean;
}

/** Why the next locked append first writes a `sealed` record: a log found unsealed, or a person's reseal (with what the old seal said). */
type PendingSeal = { reason: "first_seal" } | { reason: "resealed"; previous: (SealedPoint & { key_id: string }) | null };

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
 *
 * The tail is sealed: each append rewrites `<log>.seal` (the new last line's sequence number,
 * hash and the log's length, with an HMAC under the seal key) and the ledger carries a MAC of its
 * content. A log that no longer holds its sealed line (lines cut from its end, or another log put
 * in its place), a seal or ledger that its MAC does not match, or a seal missing from a log that
 * was sealed, is an AuditSealError: opening and every append refuse until a person reseals.
 */
export class AuditLog {
  readonly #lockPath: string;
  readonly #ledgerPath: string;
  readonly #sealPath: string;
  readonly #key: AuditSealKey;
  readonly #reads: ReadCounter = { bytesRead: 0 };
  #pendingSeal: PendingSeal | null = null;
  /** Whether the log has a seal: the ledger is saved only then (a saved ledger tells a later opener the log was sealed). */
  #sealed = false;
  /** The sequence number of the last `sealed` record a rebuild met (the log was sealed once), or null. */
  #sealRecordSeq: number | null = null;
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
    this.#ledgerPath = ledgerPathOf(path);
    this.#sealPath = sealPathOf(path);
    this.#key = options.sealKey ?? sealKeyFromFile(defaultSealKeyPath());
    this.#ledger = options.resealing === true ? this.#openForReseal() : this.#open();
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
      this.#writePendingSeal(ledger);
      const record = this.#write(ledger, input);
      this.#saveIfBehind(SAVE_EVERY_BYTES);
      return record;
    });
  }

  /** Writes the `sealed` record a first open or a reseal left pending (nothing when none is), and saves the ledger. */
  sealPending(): Promise<AuditRecord | null> {
    return this.withLock(() => {
      const record = this.#writePendingSeal(this.#follow(true));
      this.#save();
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
    const { seal, saved } = sealedStart(this.path, this.#key, this.#reads);
    this.#sealed = seal !== null;
    if (!existsSync(this.path)) {
      // A new log: its first append starts the chain with a `sealed` record, so a chain with records always holds one.
      this.#pendingSeal = { reason: "first_seal" };
      return new AuditLedger();
    }
    const checkpoint = saved?.checkpoint ?? null;
    // The sealed line was just read: a ledger saved at it needs no second look.
    const holds = checkpoint !== null && ((seal !== null && seal.offset === checkpoint.offset && seal.hash === checkpoint.hash) || this.#tailIs(checkpoint));
    if (saved === null || !holds) this.#rebuild(false);
    else {
      this.#ledger = saved;
      this.#savedOffset = saved.checkpoint?.offset ?? 0;
      this.#catchUp(false);
      this.#saveIfBehind(SAVE_EVERY_BYTES);
    }
    if (seal === null) this.#unsealedFound();
    return this.#ledger;
  }

  /** For a reseal: the log as it is, rebuilt (verifying every line), with what its old seal said kept for the `sealed` record. */
  #openForReseal(): AuditLedger {
    this.#pendingSeal = { reason: "resealed", previous: unverifiedSeal(this.#sealPath) };
    return existsSync(this.path) ? this.#rebuild(false) : new AuditLedger();
  }

  /**
   * The log has no seal. One that never had one (written before seals) is sealed now as it is,
   * its whole chain just verified by the rebuild, and its next append records that with a `sealed`
   * record; an empty one gets that record first. One whose rebuild met a `sealed` record lost its
   * seal, which only a person may accept.
   */
  #unsealedFound(): void {
    if (this.#sealRecordSeq !== null) {
      throw new AuditSealError(
        `audit log ${this.path}: its seal ${this.#sealPath} is missing, but the log was sealed (record ${this.#sealRecordSeq}); ${resealHint(this.path)}`,
      );
    }
    this.#pendingSeal = { reason: "first_seal" };
    const checkpoint = this.#ledger.checkpoint;
    if (checkpoint === null) return;
    // Without the lock: a writer meanwhile seals a later line, so this seal is at worst behind the log, never ahead of it.
    writeSealFile(this.#sealPath, this.#key, checkpoint);
    registerSeal(this.#key, logRegisterName(this.path), checkpoint);
    this.#sealed = true;
    this.#save();
  }

  #checkSeal(): SealedPoint | null {
    return checkSealedTail(this.path, this.#key, this.#reads);
  }

  /** Under the lock, before an append: the log still holds its seal (or is one still to be sealed). */
  #requireSealLocked(): void {
    if (this.#pendingSeal?.reason === "resealed") return;
    if (this.#checkSeal() !== null) {
      this.#sealed = true;
      return;
    }
    if (this.#sealed || (existsSync(this.path) && statSync(this.path).size > 0)) {
      throw new AuditSealError(`audit log ${this.path}: its seal ${this.#sealPath} is missing (removed while the log was in use); ${resealHint(this.path)}`);
    }
  }

  #writePendingSeal(ledger: AuditLedger): AuditRecord | null {
    const pending = this.#pendingSeal;
    if (pending === null) return null;
    // Another writer of the log started or sealed the chain since this one opened it: one `sealed` record is enough.
    if (pending.reason === "first_seal" && this.#sealRecordSeq !== null) {
      this.#pendingSeal = null;
      return null;
    }
    const tail = ledger.checkpoint;
    const holds = tail === null ? null : { seq: tail.seq, bytes: tail.offset };
    const previous =
      pending.reason === "resealed" && pending.previous !== null
        ? { seq: pending.previous.seq, bytes: pending.previous.offset, key_id: pending.previous.key_id }
        : null;
    const record = this.#write(ledger, sealedRecordInput(pending.reason, this.#key.id, holds, previous));
    this.#pendingSeal = null;
    return record;
  }

  /** The ledger brought up to the file: caught up on new lines, or rebuilt when the file is not the one it describes. */
  #follow(locked: boolean): AuditLedger {
    let size: number;
    let inode: number;
    try {
      ({ size, ino: inode } = statSync(this.path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // A sealed log removed is one cut to nothing; removed with its seal, a writer that sealed it refuses too.
      if (locked) this.#requireSealLocked();
      else this.#checkSeal();
      if (this.#ledger.checkpoint !== null) this.#ledger = new AuditLedger();
      this.#inode = null;
      return this.#ledger;
    }
    const checkpoint = this.#ledger.checkpoint;
    const replaced = (this.#inode !== null && inode !== this.#inode) || size < (checkpoint?.offset ?? 0);
    this.#inode = inode;
    if (locked) this.#requireSealLocked();
    else if (replaced) this.#checkSeal();
    if (replaced || (locked && checkpoint !== null && !this.#tailIs(checkpoint))) return this.#rebuild(locked);
    if (size > (checkpoint?.offset ?? 0)) this.#catchUp(locked);
    return this.#ledger;
  }

  /** Whether the line at the checkpoint is intact and the one folded there. */
  #tailIs(checkpoint: Checkpoint): boolean {
    return logHolds(this.path, checkpoint, this.#reads);
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
        if (reading.record.event === "sealed") this.#sealRecordSeq = reading.record.seq;
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
    // As "a", but a link at the name is not written through, and a pipe put there fails to open rather than wait for a reader.
    const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
    const fd = openSync(this.path, flags, 0o666);
    try {
      if (!fstatSync(fd).isFile()) throw new Error(`audit log ${this.path} is not a regular file (a pipe or a device in its place); it is not written`);
      writeSync(fd, line);
      fsyncSync(fd);
      this.#inode = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    ledger.fold(record, (tail?.offset ?? 0) + Buffer.byteLength(line));
    // After the line is on disk: a crash between the two leaves a seal behind the log, which is caught up, never one ahead of it.
    const sealed = ledger.checkpoint;
    if (sealed !== null) {
      writeSealFile(this.#sealPath, this.#key, sealed);
      registerSeal(this.#key, logRegisterName(this.path), sealed);
      this.#sealed = true;
    }
    return record;
  }

  #saveIfBehind(bytes: number): void {
    if ((this.#ledger.checkpoint?.offset ?? 0) - this.#savedOffset >= bytes) this.#save();
  }

  #save(): void {
    this.#ledger.prune();
    if (!this.#sealed) return;
    try {
      writeLedgerFile(this.#ledgerPath, this.#ledger, this.#key);
      this.#savedOffset = this.#ledger.checkpoint?.offset ?? 0;
    } catch {
      // The ledger is derived from the log: one not saved is caught up or rebuilt by the next opener.
    }
  }
}
