import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Answer, ResponseHeaders } from "./attempt.js";
import { BoundedChunks, ByteLimit, declaresMoreThan } from "./bounded-body.js";
import { decodersFor, decodingFailed } from "./content-decoding.js";

/** Answers that carry no body whatever their headers say. */
const NO_BODY_STATUSES: ReadonlySet<number> = new Set([204, 304]);

function headerReader(headers: IncomingHttpHeaders): ResponseHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** The connection closed before the whole answer arrived (a cut body). */
function cutOff(): Error {
  return Object.assign(new Error("the connection closed before the whole answer arrived"), { code: "ECONNRESET" });
}

/** Reads a node:http answer's body, decoded, under maxBytes both as it arrives and once decoded. */
export function readAnswer(res: IncomingMessage, maxBytes: number, finish: (answer: Answer) => void, fail: (error: unknown) => void): void {
  const status = res.statusCode ?? 0;
  const headers = headerReader(res.headers);
  const contentEncoding = res.headers["content-encoding"] ?? "";
  const decoding = NO_BODY_STATUSES.has(status) ? { decoders: [] } : decodersFor(contentEncoding);
  const decoders = "decoders" in decoding ? decoding.decoders : [];
  // Destroying the answer closes its connection: the rest of it is never read, nor the connection used again.
  const stop = () => {
    res.destroy();
    for (const decoder of decoders) decoder.destroy();
  };
  const refuse = (unknownEncoding?: string) => {
    stop();
    finish({ status, headers, body: null, ...(unknownEncoding === undefined ? {} : { unknownEncoding }) });
  };
  if (declaresMoreThan(res.headers["content-length"], maxBytes)) return refuse();
  if ("unknown" in decoding) return refuse(decoding.unknown);
  const received = new ByteLimit(maxBytes);
  const body = new BoundedChunks(maxBytes);
  const first = decoders[0];
  const last = decoders.at(-1);
  res.on("data", (chunk: Buffer) => {
    if (!received.take(chunk.byteLength)) refuse();
    else if (first === undefined) body.add(chunk);
    else if (!first.write(chunk)) {
      // At the decoder's pace: a body that decodes huge is stopped by its decoded size, its rest left unread.
      res.pause();
      first.once("drain", () => res.resume());
    }
  });
  res.on("error", fail);
  // Node reports a cut body as an error; a close without one must not leave the call to its timeout.
  res.on("close", () => {
    if (res.complete) return;
    stop();
    fail(cutOff());
  });
  if (first === undefined || last === undefined) {
    res.on("end", () => finish({ status, headers, body: body.bytes() }));
    return;
  }
  decoders.reduce((from, to) => from.pipe(to));
  for (const decoder of decoders) {
    decoder.on("error", (error) => {
      fail(decodingFailed(contentEncoding, error));
      stop();
    });
  }
  last.on("data", (chunk: Buffer) => {
    if (!body.add(chunk)) refuse();
  });
  last.on("end", () => finish({ status, headers, body: body.bytes() }));
  // An empty body is empty whatever its coding says (a decoder would call it cut short).
  res.on("end", () => (received.size === 0 ? finish({ status, headers, body: new Uint8Array() }) : first.end()));
}
