import { Transform, type TransformCallback } from "node:stream";
import { readClientMessage } from "../wire/client-message.js";
import { LineSplitter } from "../wire/stdio-line-splitter.js";
import { messageRefusal, STDIO_BATCH_REFUSAL } from "./message-refusal.js";

/**
 * The client's lines on their way to the SDK's stdio transport, each read as the HTTP endpoint reads
 * a body (wire/client-message.ts): one that is not JSON, names a key twice in one object, has an id
 * a number cannot carry, is no JSON-RPC message or is a batch is answered here with its JSON-RPC error (written
 * to `answers`) and not passed on; the SDK would drop the first, third, fourth and fifth without a word and
 * serve the second as JSON.parse reads it. Blank lines are passed on (the SDK skips them). A line
 * longer than the transport takes is passed on unread, for the transport to refuse as it does.
 * While `answers` holds more than it takes (a client sending refused lines without reading its
 * answers), no line is read: the input waits (stdin is paused by its pipe) until it drains.
 */
export class CheckedLines extends Transform {
  #full = false;
  readonly #lines = new LineSplitter({ line: (line) => this.#line(line), unread: (bytes) => this.push(bytes) });

  constructor(private readonly answers: NodeJS.WritableStream) {
    super();
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, done: TransformCallback): void {
    const rest = this.#lines.split(chunk, () => this.#full);
    if (!this.#full) return done();
    this.answers.once("drain", () => {
      this.#full = false;
      this._transform(rest, encoding, done);
    });
  }

  #line(line: Buffer): void {
    const text = line.toString("utf8").replace(/\r?\n$/, "");
    if (text.trim() === "") return void this.push(line);
    const read = readClientMessage(text);
    if (!("refused" in read) && !Array.isArray(read.message)) return void this.push(line);
    const { code, message, id } = "refused" in read ? messageRefusal(read.refused) : STDIO_BATCH_REFUSAL;
    this.#full = !this.answers.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }
}
