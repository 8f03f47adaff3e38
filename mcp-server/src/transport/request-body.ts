import type { IncomingMessage } from "node:http";

/**
 * The largest request body taken: a tool call's arguments are bounded field by field (shared's
 * INPUT_LIMITS; call data, the largest, is 64 KiB), so a megabyte is room to spare. Checked before
 * anything is parsed: a body of many megabytes is refused unread, not parsed and then refused.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** A body over MAX_REQUEST_BYTES: answered 413. */
export class RequestTooLarge extends Error {
  constructor(size: number, declared: boolean) {
    super(`a request body may be at most ${MAX_REQUEST_BYTES} bytes, this one ${declared ? "declares" : "has more than"} ${size}`);
  }
}

/**
 * The body's text, read up to MAX_REQUEST_BYTES: a larger declared Content-Length is refused
 * before reading, a larger body as soon as it passes the limit (the rest is drained unread, so
 * the refusal can still be answered). It is read as a message by wire/client-message.ts.
 */
export function readBodyText(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > MAX_REQUEST_BYTES) {
    req.resume();
    return Promise.reject(new RequestTooLarge(declared, true));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        refused = true;
        reject(new RequestTooLarge(MAX_REQUEST_BYTES, false));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (refused) return;
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}
