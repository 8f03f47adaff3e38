import { Transform, type TransformCallback } from "node:stream";
import { STDIO_MAX_LINE_BYTES } from "../opening/client-stdio.js";
import { readClientMessage } from "../wire/client-message.js";
import { messageRefusal } from "./message-refusal.js";

/**
 * The client's lines on their way to the SDK's stdio transport, each read as the HTTP endpoint reads
 * a body (wire/client-message.ts): one that is not JSON, names a key twice in one object or has an
 * id a number cannot carry is answered here with its JSON-RPC error (written by `answer`) and not
 * passed on; the SDK would drop the first without a word, serve the second as JSON.parse reads it,
 * and drop the third. Blank lines are passed on (the SDK skips them). A line longer than the
 * transport takes is passed on unread, for the transport to refuse as it does.
 */
export class CheckedLines extends Transform {
  /** The start of a line whose end has not come yet. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** A line over the limit is under way: passed on unread to its end. */
  #overlong = false;

  constructor(private readonly answer: (line: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      const end = rest.subarray(0, newline + 1);
      rest = rest.subarray(newline + 1);
      if (this.#overlong) {
        this.#overlong = false;
        this.push(end);
        continue;
      }
      if (this.#partialBytes + end.length > STDIO_MAX_LINE_BYTES) this.#passUnread(end);
      else this.#line(this.#partial.length === 0 ? end : Buffer.concat([...this.#partial, end]));
      this.#partial = [];
      this.#partialBytes = 0;
    }
    if (rest.length > 0) this.#keep(rest);
    done();
  }

  #keep(rest: Buffer): void {
    if (this.#overlong) return void this.push(rest);
    this.#partial.push(rest);
    this.#partialBytes += rest.length;
    if (this.#partialBytes <= STDIO_MAX_LINE_BYTES) return;
    this.#overlong = true;
    this.#passUnread();
    this.#partial = [];
    this.#partialBytes = 0;
  }

  /** What came of a line too long for the transport, as it came. */
  #passUnread(end?: Buffer): void {
    for (const bytes of this.#partial) this.push(bytes);
    if (end) this.push(end);
  }

  #line(line: Buffer): void {
    const text = line.toString("utf8").replace(/\r?\n$/, "");
    if (text.trim() === "") return void this.push(line);
    const read = readClientMessage(text);
    if (!("refused" in read)) return void this.push(line);
    const { code, message, id } = messageRefusal(read.refused);
    this.answer(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }
}
