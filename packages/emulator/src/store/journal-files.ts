import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bufferLines } from "./buffer-lines.js";
import { parseJournalLine, type ChangeSet } from "./journal-line.js";

const JOURNAL_FILE = /^journal-(\d+)\.log$/;

export function journalFileName(firstSeq: number): string {
  return `journal-${String(firstSeq).padStart(12, "0")}.log`;
}

/** The journal files of the directory, oldest first. */
export function listJournalFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => JOURNAL_FILE.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Every change set of the journal files in order. A damaged line is accepted only as the
 * very last line (a write torn by a crash: it was never acknowledged); anywhere else it
 * means the journal is corrupt and reading stops with an error.
 */
export function readJournal(files: readonly string[]): ChangeSet[] {
  const sets: ChangeSet[] = [];
  files.forEach((file, fileIndex) => {
    let damaged: number | null = null;
    for (const [number, line] of bufferLines(readFileSync(file))) {
      if (damaged !== null) throw new Error(`${file}: line ${damaged} is damaged and is not the last line; the journal is corrupt`);
      const set = parseJournalLine(line);
      if (set) sets.push(set);
      else damaged = number;
    }
    if (damaged !== null && fileIndex !== files.length - 1) {
      throw new Error(`${file}: line ${damaged} is damaged and is not the last line; the journal is corrupt`);
    }
  });
  return sets;
}
