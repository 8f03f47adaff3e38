import type { IncomingMessage } from "node:http";
import { repeatedKey, type RepeatedKey as RepeatedKeyFound } from "@custody/shared";

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

/** A body whose JSON names a key twice in one object: refused, whichever of the two a reader would keep. */
export class RepeatedKey extends Error {
  constructor(
    readonly repeated: RepeatedKeyFound,
    /** The body as JSON.parse reads it (the last of the two kept), for the id an answer echoes. */
    readonly body: unknown,
  ) {
    super(
      `the body names the key ${JSON.stringify(repeated.key)} twice in one object; each key at most once ` +
        "(a reader keeping the first would see another request)",
    );
  }
}

/**
 * The body as JSON, read up to MAX_REQUEST_BYTES: a larger declared Content-Length is refused
 * before reading, a larger body as soon as it passes the limit (the rest is drained unread, so
 * the refusal can still be answered). Invalid JSON throws a SyntaxError, a key named twice in
 * one object RepeatedKey.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
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
      try {
        const text = Buffer.concat(chunks).toString("utf8");
        const body: unknown = JSON.parse(text);
        const repeated = repeatedKey(text);
        if (repeated === null) resolve(body);
        else reject(new RepeatedKey(repeated, body));
      } catch (error) {
        reject(error);
      }
    });
    req.on("error", reject);
  });
}
