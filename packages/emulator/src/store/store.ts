import type { AppliedChange, CommitListener } from "./applied-change.js";
import type { DurableStorage } from "./durable-storage.js";
import { StateIndexes } from "./indexes/state-indexes.js";
import type { Change } from "./journal-line.js";
import { META_KEY, type MetaRow, type TableMaps, type TableName, type Tables } from "./state-types.js";
import { StoreTx } from "./store-tx.js";

export interface Committed<T, Event> {
  value: T;
  events: Event[];
  /** Resolves once the change set is on disk (at once in memory mode). */
  durable: Promise<void>;
}

/**
 * The emulator's state: tables of rows in memory, changed only through commit(). A commit's
 * work function runs synchronously, so commits never interleave; its changes are applied all
 * at once and journalled as one change set.
 */
export class Store<Event = unknown> {
  private storage: DurableStorage | null = null;
  private lastDurable: Promise<void> = Promise.resolve();
  private readonly listeners: CommitListener[] = [];
  /** Secondary indexes of the committed rows, updated with every commit. */
  readonly indexes: StateIndexes;

  constructor(
    private tables: TableMaps,
    private seq: number,
  ) {
    this.indexes = StateIndexes.build(tables);
  }

  attach(storage: DurableStorage): void {
    this.storage = storage;
  }

  /** Grows with every commit that changed something. */
  get version(): number {
    return this.seq;
  }

  snapshotSource = (): { seq: number; tables: TableMaps } => ({ seq: this.seq, tables: this.tables });

  get<K extends TableName>(table: K, key: string | number): Tables[K] | undefined {
    return this.tables[table].get(String(key));
  }

  values<K extends TableName>(table: K): IterableIterator<Tables[K]> {
    return this.tables[table].values();
  }

  /** Outside a commit nothing is staged. */
  stagedKeys(): readonly string[] {
    return [];
  }

  /** Tells the listener of every commit's changes, after they are applied and the indexes updated. */
  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  count(table: TableName): number {
    return this.tables[table].size;
  }

  meta(): MetaRow {
    const meta = this.tables.meta.get(META_KEY);
    if (!meta) throw new Error("the state has no meta row");
    return meta;
  }

  get storageFailure(): Error | null {
    return this.storage?.failed ?? null;
  }

  commit<T>(now: number, work: (tx: StoreTx<Event>) => T): Committed<T, Event> {
    const failure = this.storageFailure;
    if (failure) throw failure;
    const tx = new StoreTx<Event>(this.tables, this.indexes, now);
    const value = work(tx);
    const changes = tx.changes();
    if (changes.length === 0) return { value, events: tx.events, durable: this.lastDurable };
    const applied = this.apply(changes);
    this.seq += 1;
    this.indexes.apply(applied);
    for (const listener of this.listeners) listener(applied);
    const durable = this.storage ? this.storage.append({ seq: this.seq, changes }) : Promise.resolve();
    durable.catch(() => undefined);
    this.lastDurable = durable;
    return { value, events: tx.events, durable };
  }

  private apply(changes: readonly Change[]): AppliedChange[] {
    const applied: AppliedChange[] = [];
    for (const [table, key, row] of changes) {
      const map = this.tables[table] as Map<string, unknown>;
      const before = map.get(key);
      if (row === null) map.delete(key);
      else map.set(key, row);
      applied.push({ table, key, before, after: row ?? undefined } as AppliedChange);
    }
    return applied;
  }

  /** Resolves once every change applied so far is on disk. */
  whenDurable(): Promise<void> {
    return this.lastDurable;
  }

  /** Replaces the whole state (reset), as one change set that removes and puts every row. */
  replaceAll(now: number, fresh: TableMaps): Committed<void, Event> {
    return this.commit(now, (tx) => {
      for (const name of Object.keys(this.tables) as TableName[]) {
        for (const key of this.tables[name].keys()) if (!fresh[name].has(key)) tx.remove(name, key);
        for (const [key, row] of fresh[name] as Map<string, Tables[TableName]>) tx.put(name, key, row as never);
      }
    });
  }

  async close(): Promise<void> {
    await this.storage?.close();
  }
}
