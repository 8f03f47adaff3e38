import type { IncomingMessage } from "node:http";
import { parseJsonExact, errorMessage } from "@custody/shared";
import { badRequest } from "../domain/domain-error.js";
import { HttpError } from "./http-error.js";

export const MAX_BODY_BYTES = 1_048_576;

function carriesBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** application/json, with no parameter but charset=utf-8 (the body is read as UTF-8). */
function isJsonMediaType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [type, ...parameters] = value.split(";").map((part) => part.trim().toLowerCase());
  return type === "application/json" && parameters.every((parameter) => /^charset="?utf-8"?$/.test(parameter));
}

/**
 * The raw body text; 415 for a body that is not declared JSON, before a byte of it is read (a web
 * page can send text/plain to any address without asking), 413 past the limit.
 */
export function readBodyText(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  if (carriesBody(request) && !isJsonMediaType(request.headers["content-type"])) {
    const given = request.headers["content-type"];
    const got = given === undefined ? "none" : JSON.stringify(given);
    return Promise.reject(
      new HttpError(415, "UnsupportedMediaType", `Content-Type: a request body must be application/json (optionally with charset=utf-8), got ${got}`),
    );
  }
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

/**
 * The body as exact JSON (big integers kept as digit strings); undefined when there is no body.
 * A service body also keeps as written any number with a sign, fraction or exponent that reads as
 * an integer ("1.0", "1e6", "-0"), so the base-unit rules refuse it instead of a rounded value; the
 * control plane's numbers (seconds, rates) are plain numbers.
 */
export function parseBodyText(text: string, integersAsWritten: boolean): unknown {
  if (text.trim() === "") return undefined;
  try {
    return parseJsonExact(text, { integersAsWritten });
  } catch (error) {
    throw badRequest(`body: must be valid JSON (${errorMessage(error)})`, "InvalidJson");
  }
}
