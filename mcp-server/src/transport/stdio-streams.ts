import { Writable } from "node:stream";

/**
 * The SDK's v2 stdio transport closes itself when its input ends or its output fails, and a close
 * aborts the tool calls under way. Here the end of the client's input only stops new requests
 * (stdio-server.ts waits for the calls under way, which still answer and are audited): the
 * transport reads a copy of stdin (through `through`) that never ends and writes through a stream that never fails.
 */
export function inputThatStaysOpen<T extends NodeJS.WritableStream>(stdin: NodeJS.ReadableStream, through: T): T {
  stdin.pipe(through, { end: false });
  return through;
}

/** Writes to stdout; a write that fails (the client went away) is dropped, and stdout's own error handler tells. */
export function outputThatNeverFails(stdout: NodeJS.WritableStream): Writable {
  return new Writable({
    // The SDK writes strings: handed on as they are, not copied into a Buffer first (a copy per answer).
    decodeStrings: false,
    write(chunk: string | Buffer, encoding, done) {
      if (typeof chunk === "string") stdout.write(chunk, encoding, () => done());
      else stdout.write(chunk, () => done());
    },
  });
}
