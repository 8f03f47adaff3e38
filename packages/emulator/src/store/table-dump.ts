import { emptyTables, TABLE_NAMES, type TableMaps, type TableName } from "./state-types.js";
import type { Change } from "./journal-line.js";

/** Tables as plain arrays of [key, row], the snapshot form. */
export type TableDump = Partial<Record<TableName, [string, unknown][]>>;

export function dumpTables(tables: TableMaps): TableDump {
  const dump: TableDump = {};
  for (const name of TABLE_NAMES) dump[name] = [...(tables[name] as Map<string, unknown>).entries()];
  return dump;
}

export function restoreTables(dump: TableDump): TableMaps {
  const tables = emptyTables();
  for (const name of TABLE_NAMES) {
    const map = tables[name] as Map<string, unknown>;
    for (const [key, row] of dump[name] ?? []) map.set(key, row);
  }
  return tables;
}

export function applyChanges(tables: TableMaps, changes: readonly Change[]): void {
  for (const [name, key, row] of changes) {
    const map = tables[name] as Map<string, unknown> | undefined;
    if (!map) throw new Error(`journal names an unknown table ${JSON.stringify(name)}`);
    if (row === null) map.delete(key);
    else map.set(key, row);
  }
}
