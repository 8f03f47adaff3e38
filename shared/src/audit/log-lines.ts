import { closeSync, createReadStream, fstatSync, openSync, readSync } from "node:fs";

/** The synchronous reader reuses one buffer of this size. */
const CHUNK_BYTES = 1 << 20;
/** A stream allocates a buffer per chunk: small ones keep a long read's peak memory low (about 80 MiB instead of 125 for a 400 MiB log). */
const STREAM_CHUNK_BYTES = 1 << 16;
const NEWLINE = 0x0a;

/** One line of a file, without its "\n", and the byte offset just past that "\n". */
export interface FileLine {
  text: string;
  end: number;
}

/**
 * Cuts chunks of bytes into lines on "\n" only, keeping byte offsets: a line that spans chunks
 * is joined, and memory holds one chunk and the longest line, whatever the file's size.
 */
class LineSplitter {
  #pending: Buffer[] = [];
  #offset: number;

  constructor(start: number) {
    this.#offset = start;
  }

  /** The complete lines of this chunk (with what was pending before it). */
  *push(chunk: Buffer): Generator<FileLine> {
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      const piece = chunk.subarray(from, at);
      const bytes = this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece]);
      this.#pending = [];
      this.#offset += bytes.length + 1;
      yield { text: bytes.toString("utf8"), end: this.#offset };
      from = at + 1;
    }
    if (from < chunk.length) this.#pending.push(Buffer.from(chunk.subarray(from)));
  }

  /** The bytes after the last "\n": a line still being written, or one cut short. */
  remainder(): Buffer {
    return Buffer.concat(this.#pending);
  }
}

export interface ReadCounter {
  bytesRead: number;
}

/**
 * Every complete line of the file from byte `start`, read in chunks; returns where the
 * unterminated remainder starts and its bytes (empty when the file ends with "\n").
 */
export function forEachLineSync(path: string, start: number, onLine: (line: FileLine) => void, counter?: ReadCounter): { end: number; remainder: Buffer } {
  const fd = openSync(path, "r");
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

/** Every line of the file streamed (the last one even without "\n"), for a check of a file of any size in bounded memory. */
export async function* streamLines(path: string): AsyncGenerator<FileLine> {
  const splitter = new LineSplitter(0);
  let end = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: STREAM_CHUNK_BYTES })) {
    for (const line of splitter.push(chunk as Buffer)) {
      end = line.end;
      yield line;
    }
  }
  const remainder = splitter.remainder();
  if (remainder.length > 0) yield { text: remainder.toString("utf8"), end: end + remainder.length };
}

/**
 * The line that ends (with its "\n") at byte `end` of the file, read backwards from there: the
 * tail of a log without reading what comes before it. Null when no "\n" ends there.
 */
export function lineEndingAt(path: string, end: number, counter?: ReadCounter): string | null {
  if (end <= 0) return null;
  const fd = openSync(path, "r");
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
