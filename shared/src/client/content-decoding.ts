import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** What the node:http path asks for; each is decoded by decodersFor. */
export const ACCEPTED_ENCODINGS = "gzip, deflate, br";

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** More codings than anyone applies to one answer: a longer list is refused rather than decoded layer after layer. */
const MAX_CODINGS = 3;

/** An HTTP token (RFC 9110): a coding's name shown in an error only when it is one, so a hostile header stays out of it. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,40}$/;

export type Decoding = { decoders: Transform[] } | { unknown: string };

/**
 * The decoders of an answer's Content-Encoding, first to last as the body goes through them (the
 * codings were applied in the order listed, so they are undone in reverse), or the coding the
 * client cannot decode. No Content-Encoding, or `identity`, needs none.
 */
export function decodersFor(contentEncoding: string | undefined): Decoding {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length > MAX_CODINGS) return { unknown: `${codings.length} codings in a row` };
  const unknown = codings.find((coding) => DECODERS[coding] === undefined);
  if (unknown !== undefined) return { unknown: TOKEN.test(unknown) ? `"${unknown}"` : "(not a coding's name)" };
  return { decoders: codings.reverse().map((coding) => (DECODERS[coding] as () => Transform)()) };
}

/**
 * A compressed body that does not decode (corrupt, or cut short): reported as a failure while
 * reading the answer, as a body cut mid-way is. Named as a browser names it; the decoder's own error is its cause.
 */
export function decodingFailed(contentEncoding: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const message = `the answer's body does not decode as its Content-Encoding (${contentEncoding.slice(0, 40)}) says: ${reason}`;
  return Object.assign(new Error(message, { cause }), { code: "ERR_CONTENT_DECODING_FAILED" });
}
