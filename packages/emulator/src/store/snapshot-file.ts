import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { bufferLines } from "./buffer-lines.js";
import { fsyncDirectory } from "./fsync-directory.js";
import { decodeState, encodeState } from "./state-codec.js";
import type { TableDump } from "./table-dump.js";
import { TABLE_NAMES, type TableName } from "./state-types.js";

const SNAPSHOT = "snapshot.json";
/** Format 1: one JSON document. Format 2: JSON lines (a header, rows in chunks, an end line), never one huge string. */
const FORMAT = 2;
const ROWS_PER_LINE = 1_000;

export interface Snapshot {
  seq: number;
  tables: TableDump;
}

type Line = { format: number; seq: number } | [TableName, [string, unknown][]] | { end: true; rows: number };

/**
 * Writes the snapshot to a temporary file line by line, fsyncs it, renames it into place and
 * fsyncs the directory. Lines keep every write small whatever the state's size (a single
 * JSON string of a large workspace would pass V8's string limit).
 */
export function writeSnapshot(dir: string, snapshot: Snapshot): void {
  const temp = join(dir, `${SNAPSHOT}.tmp`);
  const fd = openSync(temp, "w", 0o600);
  try {
    const line = (value: Line): void => {
      writeSync(fd, `${encodeState(value)}\n`);
    };
    line({ format: FORMAT, seq: snapshot.seq });
    let rows = 0;
    for (const name of TABLE_NAMES) {
      const entries = snapshot.tables[name] ?? [];
      for (let from = 0; from < entries.length; from += ROWS_PER_LINE) line([name, entries.slice(from, from + ROWS_PER_LINE)]);
      rows += entries.length;
    }
    line({ end: true, rows });
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, join(dir, SNAPSHOT));
  fsyncDirectory(dir);
}

export function readSnapshot(dir: string): Snapshot | undefined {
  const path = join(dir, SNAPSHOT);
  if (!existsSync(path)) return undefined;
  const buffer = readFileSync(path);
  const reader = bufferLines(buffer);
  const first = reader.next();
  const header = (first.done ? undefined : decodeState(first.value[1])) as { format?: unknown; seq?: unknown; tables?: unknown } | undefined;
  if (header?.format === 1 && typeof header.seq === "number" && typeof header.tables === "object" && header.tables !== null) {
    return { seq: header.seq, tables: header.tables as TableDump };
  }
  if (header?.format !== FORMAT || typeof header.seq !== "number") throw new Error(`${path}: not a snapshot of format 1 or ${FORMAT}`);
  const tables: TableDump = {};
  let rows = 0;
  for (const [, text] of reader) {
    const line = decodeState(text) as Line;
    if (!Array.isArray(line)) {
      if ("end" in line && line.rows === rows) return { seq: header.seq, tables };
      throw new Error(`${path}: the end line does not match the ${rows} rows read; the snapshot is damaged`);
    }
    const [name, entries] = line;
    if (!(TABLE_NAMES as readonly string[]).includes(name)) throw new Error(`${path}: unknown table ${JSON.stringify(name)}`);
    (tables[name] ??= []).push(...entries);
    rows += entries.length;
  }
  throw new Error(`${path}: the snapshot ends before its end line; it is damaged`);
}
