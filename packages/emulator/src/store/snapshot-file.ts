import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fsyncDirectory } from "./fsync-directory.js";
import { decodeState, encodeState } from "./state-codec.js";
import type { TableDump } from "./table-dump.js";

const SNAPSHOT = "snapshot.json";
const FORMAT = 1;

export interface Snapshot {
  seq: number;
  tables: TableDump;
}

/** Writes the snapshot to a temporary file, fsyncs it, renames it into place, fsyncs the directory. */
export function writeSnapshot(dir: string, snapshot: Snapshot): void {
  const temp = join(dir, `${SNAPSHOT}.tmp`);
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, encodeState({ format: FORMAT, seq: snapshot.seq, tables: snapshot.tables }));
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
  const value = decodeState(readFileSync(path, "utf8")) as { format?: unknown; seq?: unknown; tables?: unknown };
  if (value.format !== FORMAT || typeof value.seq !== "number" || typeof value.tables !== "object" || value.tables === null) {
    throw new Error(`${path}: not a snapshot of format ${FORMAT}`);
  }
  return { seq: value.seq, tables: value.tables as TableDump };
}
