import type { IncomingMessage } from "node:http";
import { parseJsonExact } from "@custody/shared";
import { badRequest, HttpError } from "./http-error.js";

export const MAX_BODY_BYTES = 1_048_576;

/**
 * The raw body text; 413 past the limit, before anything parses it: a larger declared
 * Content-Length at once, a larger body as soon as it passes the limit (the rest is drained unread).
 */
export function readBodyText(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (declared > limit) {
    request.resume();
    return Promise.reject(new HttpError(413, "PayloadTooLarge", `body: must be at most ${limit} bytes, this one declares ${declared}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        reject(new HttpError(413, "PayloadTooLarge", `body: must be at most ${limit} bytes`));
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** The body as exact JSON (big integers kept as digit strings); undefined when there is no body. */
export function parseBodyText(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return parseJsonExact(text);
  } catch (error) {
    throw badRequest(`body: must be valid JSON (${(error as Error).message})`, "InvalidJson");
  }
}
