import { crc32 } from "node:zlib";
import { decodeState, encodeState } from "./state-codec.js";
import type { TableName } from "./state-types.js";

/** One change of a committed change set: the new row, or null when the row was removed. */
export type Change = [table: TableName, key: string, row: unknown];

export interface ChangeSet {
  seq: number;
  changes: Change[];
}

/** A journal line: the CRC-32 of the JSON (8 hex digits), a space, the JSON, a newline. */
export function formatJournalLine(set: ChangeSet): string {
  const json = encodeState(set);
  return `${crc32(json).toString(16).padStart(8, "0")} ${json}\n`;
}

/** The change set of a line, or undefined when the line is torn or damaged. */
export function parseJournalLine(line: string): ChangeSet | undefined {
  const space = line.indexOf(" ");
  if (space !== 8) return undefined;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, "0") !== line.slice(0, 8)) return undefined;
  try {
    const value = decodeState(json) as ChangeSet;
    if (typeof value.seq !== "number" || !Array.isArray(value.changes)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}
