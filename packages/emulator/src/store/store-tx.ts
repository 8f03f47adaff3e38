import type { StateIndexes } from "./indexes/state-indexes.js";
import type { Change } from "./journal-line.js";
import { META_KEY, type CounterName, type MetaRow, type TableMaps, type TableName, type Tables } from "./state-types.js";

const REMOVED = Symbol("removed");
type Staged = Map<string, unknown>;

/**
 * The changes of one commit, staged until the work function returns. Reads see the staged
 * rows first; nothing reaches the tables unless the whole function succeeds.
 */
export class StoreTx<Event = unknown> {
  private readonly staged = new Map<TableName, Staged>();
  readonly events: Event[] = [];

  constructor(
    private readonly tables: TableMaps,
    /** The indexes of the committed rows: a look-up through them also checks the rows staged here. */
    readonly indexes: StateIndexes,
    /** The simulated time of this commit. */
    readonly now: number,
  ) {}

  get<K extends TableName>(table: K, key: string | number): Tables[K] | undefined {
    const id = String(key);
    const staged = this.staged.get(table);
    if (staged?.has(id)) {
      const row = staged.get(id);
      return row === REMOVED ? undefined : (row as Tables[K]);
    }
    return this.tables[table].get(id);
  }

  put<K extends TableName>(table: K, key: string | number, row: Tables[K]): void {
    this.stage(table).set(String(key), row);
  }

  remove(table: TableName, key: string | number): void {
    this.stage(table).set(String(key), REMOVED);
  }

  /** Keys of the table this commit has put or removed so far. */
  stagedKeys(table: TableName): Iterable<string> {
    return this.staged.get(table)?.keys() ?? [];
  }

  /** Every row of the table as this commit sees it, in table order then new rows. */
  values<K extends TableName>(table: K): Tables[K][] {
    const staged = this.staged.get(table);
    const rows: Tables[K][] = [];
    for (const [key, row] of this.tables[table]) {
      if (!staged?.has(key)) rows.push(row);
      else if (staged.get(key) !== REMOVED) rows.push(staged.get(key) as Tables[K]);
    }
    if (staged) {
      for (const [key, row] of staged) if (!this.tables[table].has(key) && row !== REMOVED) rows.push(row as Tables[K]);
    }
    return rows;
  }

  meta(): MetaRow {
    const meta = this.get("meta", META_KEY);
    if (!meta) throw new Error("the state has no meta row");
    return meta;
  }

  putMeta(meta: MetaRow): void {
    this.put("meta", META_KEY, meta);
  }

  nextId(counter: CounterName): number {
    const meta = this.meta();
    const id = meta.counters[counter] + 1;
    this.putMeta({ ...meta, counters: { ...meta.counters, [counter]: id } });
    return id;
  }

  emit(event: Event): void {
    this.events.push(event);
  }

  changes(): Change[] {
    const changes: Change[] = [];
    for (const [table, staged] of this.staged) {
      for (const [key, row] of staged) changes.push([table, key, row === REMOVED ? null : row]);
    }
    return changes;
  }

  private stage(table: TableName): Staged {
    let staged = this.staged.get(table);
    if (!staged) {
      staged = new Map();
      this.staged.set(table, staged);
    }
    return staged;
  }
}
