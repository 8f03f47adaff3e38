import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
// A subpath of its own: the entry must not load shared's index (the start loads only what it needs).
import { replaceWhole } from "@custody/shared/whole-file";
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

/**
 * The answers recorded for this configuration; none when the file is missing, too large, unreadable,
 * a link, another user's or writable by others, or not what this writes (a miss, never an error).
 */
export function readOpeningAnswers(directory: string, configuration: string): OpeningAnswers {
  const bytes = boundedRead(fileOf(directory, configuration), MAX_FILE_BYTES, { ownFileOnly: true });
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

/**
 * Writes the configuration's answers, owner-only, and drops the oldest configurations beyond the
 * bound. Written under a fresh name of its own (never through a link) and renamed over the file's
 * (a link there is replaced, not followed): a reader, or a second process writing at once, finds
 * one whole file or the other.
 */
export function writeOpeningAnswers(directory: string, configuration: string, answers: OpeningAnswers): void {
  const kept = [...answers].slice(-MAX_ANSWERS);
  try {
    replaceWhole(fileOf(directory, configuration), JSON.stringify({ version: 1, answers: Object.fromEntries(kept) }), { mode: 0o600 });
    const files = readdirSync(directory)
      .filter((name) => FILE_NAME.test(name))
      .map((name) => ({ path: join(directory, name), written: lstatSync(join(directory, name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const old of files.slice(MAX_FILES)) rmSync(old.path, { force: true });
  } catch {
    // The next start only answers from the server again.
  }
}
