import type { Writable } from "node:stream";

/** Calls `closed` when the reader of the stream has gone (EPIPE), instead of the uncaught error's stack trace; other errors are thrown as before. */
export function endOnClosedPipe(stream: Writable, closed: () => void): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed();
  });
}

/** A line writer on stdout that stops writing, quietly, once its reader has gone (verify-audit | head): the command still ends with its own status. */
export function quietStdout(): (line: string) => void {
  let open = true;
  endOnClosedPipe(process.stdout, () => {
    open = false;
  });
  return (line) => {
    if (open) process.stdout.write(`${line}\n`);
  };
}
