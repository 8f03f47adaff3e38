import { closeSync, createReadStream, fstatSync, readSync } from "node:fs";
import { isRefusedFile, openOwnFile } from "../files/own-file.js";

/** The synchronous reader reuses one buffer of this size. */
const CHUNK_BYTES = 1 << 20;
/** A stream allocates a buffer per chunk: small ones keep a long read's peak memory low (about 80 MiB instead of 125 for a 400 MiB log). */
const STREAM_CHUNK_BYTES = 1 << 16;
const NEWLINE = 0x0a;

/** No audit record is longer (AUDIT_RECORD_LIMIT bounds its JSON); a longer line is not kept, only measured. */
export const MAX_AUDIT_LINE_BYTES = 1 << 20;

/** One line of a file, without its "\n", and the byte offset just past that "\n". */
export interface FileLine {
  text: string;
  end: number;
  /** Set when the line was longer than the reader keeps: its length in bytes (its text is then empty). */
  tooLong?: number;
}

/**
 * Cuts chunks of bytes into lines on "\n" only, keeping byte offsets: a line that spans chunks
 * is joined, and memory holds one chunk and the longest line, whatever the file's size.
 */
class LineSplitter {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Bytes of a line past maxLineBytes, counted but not kept; null while the line is within it. */
  #dropped: number | null = null;
  #offset: number;

  constructor(
    start: number,
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
  ) {
    this.#offset = start;
  }

  /** The complete lines of this chunk (with what was pending before it). */
  *push(chunk: Buffer): Generator<FileLine> {
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      yield this.#line(chunk.subarray(from, at), 1);
      from = at + 1;
    }
    if (from < chunk.length) this.#keep(chunk.subarray(from));
  }

  /** The line made of what is pending and `piece`, followed by `newline` bytes. */
  #line(piece: Buffer, newline: number): FileLine {
    this.#keep(piece);
    const length = this.#dropped ?? this.#pendingBytes;
    const text = this.#dropped === null ? Buffer.concat(this.#pending).toString("utf8") : "";
    this.#offset += length + newline;
    const line: FileLine = this.#dropped === null ? { text, end: this.#offset } : { text, end: this.#offset, tooLong: length };
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#dropped = null;
    return line;
  }

  #keep(piece: Buffer): void {
    if (this.#dropped !== null) {
      this.#dropped += piece.length;
      return;
    }
    if (this.#pendingBytes + piece.length > this.maxLineBytes) {
      this.#dropped = this.#pendingBytes + piece.length;
      this.#pending = [];
      return;
    }
    if (piece.length > 0) this.#pending.push(Buffer.from(piece));
    this.#pendingBytes += piece.length;
  }

  /** The unterminated last line, when there is one (for a reader that takes the file's last line without "\n"). */
  last(): FileLine | null {
    return this.#pendingBytes === 0 && this.#dropped === null ? null : this.#line(Buffer.alloc(0), 0);
  }

  /** The bytes after the last "\n": a line still being written, or one cut short. */
  remainder(): Buffer {
    return Buffer.concat(this.#pending);
  }
}

/** An audit log that is not a file this program writes (a link, a pipe, a device or a folder at its name): never read. */
export class AuditLogRefused extends Error {
  override readonly name = "AuditLogRefused";
}

/** The log opened if it is a regular file; null when absent; a link, a pipe or a device at its name is AuditLogRefused. */
function openLogIfAny(path: string): { fd: number; size: number } | null {
  const opened = openOwnFile(path, { what: "audit log" });
  if (opened === null) return null;
  if (isRefusedFile(opened)) throw new AuditLogRefused(opened.reason);
  return { fd: opened.fd, size: opened.status.size };
}

/**
 * The log opened to be read: it may be huge by design (read in bounded memory, never whole), but it is the store's own file: a
 * link, a pipe or a device at its name is refused (AuditLogRefused, naming it), never waited on nor read without end. Absent:
 * ENOENT, as an open throws it.
 */
function openLog(path: string): number {
  const opened = openLogIfAny(path);
  if (opened === null) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT", path });
  return opened.fd;
}

/** The log's length in bytes, 0 when absent; AuditLogRefused when it is not a regular file (a pipe or a link to one says 0). */
export function logSize(path: string): number {
  const opened = openLogIfAny(path);
  if (opened === null) return 0;
  closeSync(opened.fd);
  return opened.size;
}

export interface ReadCounter {
  bytesRead: number;
}

/**
 * Every complete line of the file from byte `start`, read in chunks; returns where the
 * unterminated remainder starts and its bytes (empty when the file ends with "\n").
 */
export function forEachLineSync(path: string, start: number, onLine: (line: FileLine) => void, counter?: ReadCounter): { end: number; remainder: Buffer } {
  const fd = openLog(path);
  try {
    const splitter = new LineSplitter(start);
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let position = start;
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
      if (read === 0) break;
      position += read;
      if (counter) counter.bytesRead += read;
      for (const line of splitter.push(chunk.subarray(0, read))) onLine(line);
    }
    const remainder = splitter.remainder();
    return { end: position - remainder.length, remainder };
  } finally {
    closeSync(fd);
  }
}

/**
 * Every line of the file streamed (the last one even without "\n"), for a check of a file of any
 * size in bounded memory: a line longer than MAX_AUDIT_LINE_BYTES is measured, not kept (tooLong).
 */
export async function* streamLines(path: string): AsyncGenerator<FileLine> {
  const splitter = new LineSplitter(0, MAX_AUDIT_LINE_BYTES);
  for await (const chunk of createReadStream(path, { fd: openLog(path), highWaterMark: STREAM_CHUNK_BYTES })) yield* splitter.push(chunk as Buffer);
  const last = splitter.last();
  if (last !== null) yield last;
}

/**
 * The line that ends (with its "\n") at byte `end` of the file, read backwards from there: the
 * tail of a log without reading what comes before it. Null when no "\n" ends there.
 */
export function lineEndingAt(path: string, end: number, counter?: ReadCounter): string | null {
  if (end <= 0) return null;
  const fd = openLog(path);
  try {
    if (fstatSync(fd).size < end) return null;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, end - 1);
    if (last[0] !== NEWLINE) return null;
    let window = 4096;
    for (;;) {
      const from = Math.max(0, end - 1 - window);
      const bytes = Buffer.allocUnsafe(end - 1 - from);
      const read = readSync(fd, bytes, 0, bytes.length, from);
      if (counter) counter.bytesRead += read + 1;
      const newline = bytes.subarray(0, read).lastIndexOf(NEWLINE);
      if (newline !== -1) return bytes.subarray(newline + 1, read).toString("utf8");
      if (from === 0) return bytes.subarray(0, read).toString("utf8");
      window *= 4;
    }
  } finally {
    closeSync(fd);
  }
}
