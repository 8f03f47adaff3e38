/** The longest stretch of the client's input read without a newline: the SDK stdio transport's default, given to it and to the opening front alike. */
export const STDIO_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NOTHING_LEFT = Buffer.alloc(0);

/** Where the splitter hands what it read. */
export interface LineSink {
  /** A whole line (its newline included), within the limit: each byte looked at once, the line joined once. */
  line(line: Buffer): void;
  /** Bytes of a line longer than the SDK's stdio transport takes, as they came, to its end: for the transport to refuse as it does. */
  unread(bytes: Buffer): void;
}

/**
 * The client's stdio input cut into lines, however the chunks cut it, with the SDK transport's
 * length limit (STDIO_MAX_LINE_BYTES): the one splitter of the opening front (before the SDK is
 * loaded) and of the server's line check (transport/stdio-lines.ts).
 */
export class LineSplitter {
  /** The start of a line whose end has not come yet. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** A line over the limit is under way: handed on unread to its end. */
  #overlong = false;

  constructor(private readonly sink: LineSink) {}

  /**
   * Hands on the chunk's lines, and keeps the start of one not ended. When `stop` turns true after a
   * line, stops there: what is left of the chunk is returned, not looked at (empty when all was read).
   */
  split(chunk: Buffer, stop: () => boolean = () => false): Buffer {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      const end = rest.subarray(0, newline + 1);
      rest = rest.subarray(newline + 1);
      if (this.#overlong) {
        this.#overlong = false;
        this.sink.unread(end);
      } else if (this.#partialBytes + end.length > STDIO_MAX_LINE_BYTES) this.#handUnread(end);
      else this.sink.line(this.#partial.length === 0 ? end : Buffer.concat([...this.#partial, end]));
      this.#partial = [];
      this.#partialBytes = 0;
      if (stop()) return rest;
    }
    if (rest.length > 0) this.#keep(rest);
    return NOTHING_LEFT;
  }

  /** The start of a line not ended, taken from the splitter (for bytes to go on unsplit from here). */
  takePartial(): Buffer[] {
    const partial = this.#partial;
    this.#partial = [];
    this.#partialBytes = 0;
    return partial;
  }

  #keep(rest: Buffer): void {
    if (this.#overlong) return this.sink.unread(rest);
    this.#partial.push(rest);
    this.#partialBytes += rest.length;
    if (this.#partialBytes <= STDIO_MAX_LINE_BYTES) return;
    this.#overlong = true;
    this.#handUnread();
    this.#partial = [];
    this.#partialBytes = 0;
  }

  /** What came of a line too long for the transport, as it came. */
  #handUnread(end?: Buffer): void {
    for (const bytes of this.#partial) this.sink.unread(bytes);
    if (end) this.sink.unread(end);
  }
}
