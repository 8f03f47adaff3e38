import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { boundedRead } from "./bounded-read.js";

/** A configuration's answers: the opening requests' fingerprints and the results the server gave them. */
export type OpeningAnswers = Map<string, Record<string, unknown>>;

/** Larger files are not read: a miss. The listing of both generations for one or two clients is about 250 KB. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Answers kept per configuration (clients that declare other capabilities get answers of their own). */
const MAX_ANSWERS = 24;
/** Configurations kept (other builds, policies, settings); the least recently written go first. */
const MAX_FILES = 32;
const FILE_NAME = /^[0-9a-f]{64}\.json$/;

function fileOf(directory: string, configuration: string): string {
  return join(directory, `${configuration}.json`);
}

/** The answers recorded for this configuration; none when the file is missing, too large, unreadable or not what this writes (a miss, never an error). */
export function readOpeningAnswers(directory: string, configuration: string): OpeningAnswers {
  const bytes = boundedRead(fileOf(directory, configuration), MAX_FILE_BYTES);
  if (bytes === null) return new Map();
  try {
    const file = JSON.parse(bytes.toString("utf8")) as { version?: unknown; answers?: unknown };
    if (file.version !== 1 || typeof file.answers !== "object" || file.answers === null || Array.isArray(file.answers)) return new Map();
    const isResult = (entry: [string, unknown]): entry is [string, Record<string, unknown>] =>
      typeof entry[1] === "object" && entry[1] !== null && !Array.isArray(entry[1]);
    return new Map(Object.entries(file.answers as Record<string, unknown>).filter(isResult));
  } catch {
    return new Map();
  }
}

/** Writes the configuration's answers (owner-only, replaced whole so a reader never sees half a file), and drops the oldest configurations beyond the bound. */
export function writeOpeningAnswers(directory: string, configuration: string, answers: OpeningAnswers): void {
  const kept = [...answers].slice(-MAX_ANSWERS);
  const file = fileOf(directory, configuration);
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, JSON.stringify({ version: 1, answers: Object.fromEntries(kept) }), { mode: 0o600 });
    renameSync(partial, file);
    const files = readdirSync(directory)
      .filter((name) => FILE_NAME.test(name))
      .map((name) => ({ path: join(directory, name), written: statSync(join(directory, name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const old of files.slice(MAX_FILES)) rmSync(old.path, { force: true });
  } catch {
    // The next start only answers from the server again.
    rmSync(partial, { force: true });
  }
}
