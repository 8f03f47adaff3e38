import { closeSync, mkdirSync, openSync, rmSync } from "node:fs";
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
}

/** Gives the state to snapshot: the tables and the seq of the last change set applied to them. */
export type SnapshotSource = () => { seq: number; tables: TableMaps };

const COMPACT_EVERY_LINES = 5_000;

/**
 * The state on disk: a snapshot and an append-only journal of change sets. Every change set
 * is written and fsynced before its append() resolves (group commit: change sets queued
 * while a write is under way go out together in the next write).
 */
export class DurableStorage {
  private readonly queue: Pending[] = [];
  private running: Promise<void> | null = null;
  private failure: Error | null = null;
  private linesInFile = 0;

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
    return { tables, seq, fresh: !snapshot && files.length === 0 };
  }

  /** Starts writing: compacts what was loaded into a fresh snapshot and a new journal file. */
  static async start(dir: string, source: SnapshotSource): Promise<DurableStorage> {
    const handle = await DurableStorage.rotate(dir, source);
    return new DurableStorage(dir, handle, source);
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
      this.running ??= this.run().finally(() => {
        this.running = null;
      });
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

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        await this.handle.write(batch.map((item) => item.line).join(""));
        await this.handle.sync();
      } catch (cause) {
        this.fail(cause, batch);
        return;
      }
      this.linesInFile += batch.length;
      for (const item of batch) item.resolve();
      if (this.linesInFile >= COMPACT_EVERY_LINES) {
        try {
          await this.handle.close();
          this.handle = await DurableStorage.rotate(this.dir, this.source);
          this.linesInFile = 0;
        } catch (cause) {
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
