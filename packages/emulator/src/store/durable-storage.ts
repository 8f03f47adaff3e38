import { closeSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { fsyncDirectory } from "./fsync-directory.js";
import { journalFileName, listJournalFiles, readJournal } from "./journal-files.js";
import { formatJournalLine, type ChangeSet } from "./journal-line.js";
import { readSnapshot, writeSnapshot } from "./snapshot-file.js";
import { applyChanges, dumpTables, restoreTables } from "./table-dump.js";
import { emptyTables, type TableMaps } from "./state-types.js";

interface Pending {
  line: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface LoadedState {
  tables: TableMaps;
  seq: number;
  /** True when the directory held no state before. */
  fresh: boolean;
  /** True when the snapshot alone holds the state (no journal bytes), so starting needs no new snapshot. */
  compacted: boolean;
}

/** Gives the state to snapshot: the tables and the seq of the last change set applied to them. */
export type SnapshotSource = () => { seq: number; tables: TableMaps };

const COMPACT_EVERY_LINES = 5_000;
const WRITE_CHUNK = 16 * 1024 * 1024;
/** Also compact once a journal file holds this much, so that no file grows without bound (bulk seeds write large lines). */
const COMPACT_EVERY_BYTES = 256 * 1024 * 1024;

/**
 * The state on disk: a snapshot and an append-only journal of change sets. Every change set
 * is written and fsynced before its append() resolves (group commit: change sets queued
 * while a write is under way go out together in the next write).
 */
/** The lines joined into as few writes as possible, each at most WRITE_CHUNK characters unless a line alone is longer. */
function writeChunks(lines: readonly string[]): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length > WRITE_CHUNK && current.length > 0) {
      chunks.push(current.join(""));
      current = [];
      length = 0;
    }
    current.push(line);
    length += line.length;
  }
  if (current.length > 0) chunks.push(current.join(""));
  return chunks;
}

export class DurableStorage {
  private readonly queue: Pending[] = [];
  private running: Promise<void> | null = null;
  private failure: Error | null = null;
  private linesInFile = 0;
  private bytesInFile = 0;

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    private readonly source: SnapshotSource,
  ) {}

  /** Creates the directory (and its parents) when missing; returns it. */
  static ensureDir(dir: string): string {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Reads the snapshot and the journal; a torn last line is dropped. */
  static load(dir: string): LoadedState {
    mkdirSync(dir, { recursive: true });
    const snapshot = readSnapshot(dir);
    const files = listJournalFiles(dir);
    const tables = snapshot ? restoreTables(snapshot.tables) : emptyTables();
    let seq = snapshot?.seq ?? 0;
    for (const set of readJournal(files)) {
      if (set.seq <= seq) continue;
      if (set.seq !== seq + 1) throw new Error(`journal in ${dir} skips from change set ${seq} to ${set.seq}; the journal is corrupt`);
      applyChanges(tables, set.changes);
      seq = set.seq;
    }
    const compacted = snapshot !== undefined && files.every((file) => statSync(file).size === 0);
    return { tables, seq, fresh: !snapshot && files.length === 0, compacted };
  }

  /**
   * Starts writing: compacts what was loaded into a fresh snapshot and a new journal file, or,
   * when the snapshot alone holds the state (`compacted`), appends to an empty journal file.
   */
  static async start(dir: string, source: SnapshotSource, compacted = false): Promise<DurableStorage> {
    const handle = compacted ? await DurableStorage.reopen(dir, source().seq) : await DurableStorage.rotate(dir, source);
    return new DurableStorage(dir, handle, source);
  }

  /** A journal for the change sets after `seq`, when every existing journal file is empty. */
  private static async reopen(dir: string, seq: number): Promise<FileHandle> {
    const path = join(dir, journalFileName(seq + 1));
    for (const file of listJournalFiles(dir)) if (file !== path) rmSync(file, { force: true });
    closeSync(openSync(path, "a", 0o600));
    fsyncDirectory(dir);
    return open(path, "a");
  }

  private static async rotate(dir: string, source: SnapshotSource): Promise<FileHandle> {
    const old = listJournalFiles(dir);
    const { seq, tables } = source();
    writeSnapshot(dir, { seq, tables: dumpTables(tables) });
    const path = join(dir, journalFileName(seq + 1));
    closeSync(openSync(path, "a", 0o600));
    fsyncDirectory(dir);
    for (const file of old) if (file !== path) rmSync(file, { force: true });
    return open(path, "a");
  }

  append(set: ChangeSet): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line: formatJournalLine(set), resolve, reject });
      this.running ??= this.run();
    });
  }

  /** Resolves once everything appended so far is on disk. */
  async flushed(): Promise<void> {
    while (this.running) await this.running;
    if (this.failure) throw this.failure;
  }

  get failed(): Error | null {
    return this.failure;
  }

  async close(): Promise<void> {
    await this.flushed().catch(() => undefined);
    await this.handle.close();
  }

  /**
   * Writes batches until the queue is empty. `running` is cleared in the same synchronous step
   * that finds the queue empty: cleared any later (after an await or in a .finally), a caller
   * resumed by a resolved append could queue a change set in between that no run would write.
   */
  private async run(): Promise<void> {
    for (;;) {
      if (this.queue.length === 0) {
        this.running = null;
        return;
      }
      const batch = this.queue.splice(0);
      try {
        for (const chunk of writeChunks(batch.map((item) => item.line))) await this.handle.write(chunk);
        await this.handle.sync();
      } catch (cause) {
        this.running = null;
        this.fail(cause, batch);
        return;
      }
      this.linesInFile += batch.length;
      for (const item of batch) this.bytesInFile += Buffer.byteLength(item.line);
      for (const item of batch) item.resolve();
      if (this.linesInFile >= COMPACT_EVERY_LINES || this.bytesInFile >= COMPACT_EVERY_BYTES) {
        try {
          await this.handle.close();
          this.handle = await DurableStorage.rotate(this.dir, this.source);
          this.linesInFile = 0;
          this.bytesInFile = 0;
        } catch (cause) {
          this.running = null;
          this.fail(cause, []);
          return;
        }
      }
    }
  }

  private fail(cause: unknown, batch: Pending[]): void {
    this.failure = cause instanceof Error ? cause : new Error(String(cause));
    for (const item of [...batch, ...this.queue.splice(0)]) item.reject(this.failure);
  }
}
