import type { ServerResponse } from "node:http";
import type * as Zlib from "node:zlib";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import type { CustodyClientOptions } from "../../src/client/client-options.js";
import { CustodyClient } from "../../src/client/custody-client.js";
import { AmbiguousWriteError, CustodyApiError, NetworkError, ResponseValidationError } from "../../src/client/errors.js";
import { stringifyJsonExact } from "../../src/json/exact-json.js";
import { buildSendRequest } from "../../src/kinds/send/send-request.js";
import { SOLANA_PAYOUT } from "../currency-fixtures.js";
import { caught } from "./caught.js";
import type { Served } from "./loopback-servers.js";
import { serve } from "./loopback-servers.js";
import { healthWire, transactionWire } from "./wire-fixtures.js";

// The node:http path asks for compressed answers and decodes them, under the size limit both as
// they arrive and once decoded; a service may compress or not, so these servers always do.

/** The bytes each gzip decoder the client creates has put out, in order of creation. */
const decoded = vi.hoisted((): number[] => []);

vi.mock("node:zlib", async (importOriginal) => {
  const zlib = await importOriginal<typeof Zlib>();
  const createGunzip: typeof zlib.createGunzip = (options) => {
    const index = decoded.push(0) - 1;
    return zlib.createGunzip(options).on("data", (chunk: Buffer) => (decoded[index] = (decoded[index] ?? 0) + chunk.byteLength));
  };
  return { ...zlib, createGunzip };
});

const ENCODERS: Record<string, (body: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

function client(served: Served, options: Partial<CustodyClientOptions> = {}): CustodyClient {
  return new CustodyClient({ baseUrl: served.baseUrl, operator: "treasury-bot", timeoutMs: 5_000, retry: { retries: 0 }, ...options });
}

const sendBody = () => buildSendRequest({ ...SOLANA_PAYOUT, note: { title: "payout-2024-03-ref-77", content: "March payout" } });

/** Writes `body`, already encoded, with the Content-Encoding given. */
const compressed = (res: ServerResponse, encoding: string, body: Buffer, status = 200) =>
  res.writeHead(status, { "content-type": "application/json", "content-encoding": encoding, "content-length": String(body.byteLength) }).end(body);

const wire = (body: unknown) => Buffer.from(stringifyJsonExact(body));

describe("compressed answers", () => {
  it.each(Object.keys(ENCODERS))("asks for gzip, deflate and br, and reads an answer in %s", async (encoding) => {
    const asked: (string | undefined)[] = [];
    const encode = ENCODERS[encoding] as (body: Buffer) => Buffer;
    const served = await serve((req, res) => {
      asked.push(req.headers["accept-encoding"]);
      compressed(res, encoding, encode(wire(req.method === "POST" ? transactionWire() : healthWire)), req.method === "POST" ? 201 : 200);
    });
    const custody = client(served);
    expect((await custody.health()).status).toBe("ok");
    expect((await custody.createTransaction(sendBody())).id).toBe(transactionWire().id);
    expect(asked).toEqual(["gzip, deflate, br", "gzip, deflate, br"]);
  });

  it("undoes codings applied one after another, last first", async () => {
    const served = await serve((_req, res) => compressed(res, "gzip, br", brotliCompressSync(gzipSync(wire(healthWire)))));
    expect((await client(served).health()).status).toBe("ok");
  });

  it("a body larger than the limit once decoded is refused, though it arrived small", async () => {
    const body = gzipSync(wire({ ...healthWire, padding: "x".repeat(8_000) }));
    expect(body.byteLength).toBeLessThan(1024);
    const served = await serve((_req, res) => compressed(res, "gzip", body));
    const error = await caught(client(served, { maxResponseBytes: 4096 }).health());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("(a body of more than 4096 bytes, not read)");
  });

  it("a zip bomb is refused once the limit is decoded: no more of it decoded or received, its connection not used again", async () => {
    // 16 GiB of zeros as a thousand gzip members of 16 MiB each, 16 MB on the wire; the limit (1 MiB) passes
    // long before the bytes received do (a member is 16 kB), so only the decoded bytes can stop it.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    let finished = false;
    const served = await serve((_req, res, connection) => {
      if (connection > 0) return void compressed(res, "gzip", gzipSync(wire(healthWire)));
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      let sent = 0;
      const pour = () => {
        while (sent < 1000 && !res.destroyed) {
          sent += 1;
          if (!res.write(member)) return void res.once("drain", pour);
        }
        if (sent === 1000) res.end(() => (finished = true));
      };
      pour();
    });
    const custody = client(served, { maxResponseBytes: 1024 * 1024 });
    decoded.length = 0;
    const error = await caught(custody.health());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("(a body of more than 1048576 bytes, not read)");
    await served.closed(0);
    // The decoder's output passes the limit by less than one of its chunks (16 KiB), and no more comes after.
    await new Promise((resolve) => setImmediate(resolve));
    expect(decoded[0]).toBeGreaterThan(1024 * 1024);
    expect(decoded[0]).toBeLessThanOrEqual(1024 * 1024 + 16 * 1024);
    expect(finished).toBe(false);
    expect((await custody.health()).status).toBe("ok");
    expect(served.requests).toEqual(["GET /module/_health #0", "GET /module/_health #1"]);
  });

  it("a corrupt compressed body fails a GET as a cut body does, naming the decoding", async () => {
    const served = await serve((_req, res) => compressed(res, "gzip", Buffer.from("this was never gzip")));
    const error = await caught(client(served).health());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe("GET /_health: network error (ERR_CONTENT_DECODING_FAILED)");
    expect(((error as NetworkError).cause as Error).message).toMatch(/^the answer's body does not decode as its Content-Encoding \(gzip\) says: /);
  });

  it.each([
    ["a corrupt br body", "br", Buffer.from("this was never brotli")],
    ["a gzip body cut short", "gzip", gzipSync(wire(transactionWire())).subarray(0, 40)],
  ])("%s in a POST's answer is an outcome unknown, as a body cut mid-way is", async (_name, encoding, body) => {
    const served = await serve((_req, res) => compressed(res, encoding, body, 201));
    const error = await caught(client(served).createTransaction(sendBody()));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(error).toMatchObject({ reason: "network", cause: { code: "ERR_CONTENT_DECODING_FAILED" } });
    expect(served.requests).toHaveLength(1);
  });

  it("an answer in a coding the client does not decode is refused, naming it", async () => {
    const served = await serve((req, res) => compressed(res, "zstd", Buffer.from("(zstd frames)"), req.method === "POST" ? 201 : 200));
    const read = await caught(client(served).health());
    expect(read).toBeInstanceOf(ResponseValidationError);
    expect(read.message).toBe(
      "GET /_health: the response does not match the expected shape: (body): " + '(a body in a Content-Encoding the client does not decode, "zstd", not read).',
    );
    const write = await caught(client(served).createTransaction(sendBody()));
    expect(write).toBeInstanceOf(ResponseValidationError);
    expect(write.message).toContain("The write was accepted (HTTP 201) but its answer is unreadable: look it up before any retry.");
  });

  it("an empty body is empty whatever its Content-Encoding says", async () => {
    const served = await serve((_req, res) => res.writeHead(404, { "content-encoding": "gzip" }).end());
    const error = await caught(client(served).getAccount(3));
    expect(error).toBeInstanceOf(CustodyApiError);
    expect(error.message).toBe("GET /accounts/3 answered HTTP 404: (empty body)");
  });

  it("an injected fetch is left to its own compression: the client adds no Accept-Encoding to it", async () => {
    const asked: (string | undefined)[] = [];
    const served = await serve((req, res) => {
      asked.push(req.headers["accept-encoding"]);
      compressed(res, "gzip", gzipSync(wire(healthWire)));
    });
    const fetcher = vi.fn(globalThis.fetch);
    expect((await client(served, { fetch: fetcher }).health()).status).toBe("ok");
    expect(fetcher).toHaveBeenCalledOnce();
    expect(Object.keys(fetcher.mock.calls[0]?.[1]?.headers ?? {})).not.toContain("Accept-Encoding");
    // What fetch itself asks for, as before the client had its own connections.
    const direct = await fetch(served.baseUrl);
    await direct.arrayBuffer();
    expect(asked).toEqual([asked[1], asked[1]]);
    expect(asked[0]).toMatch(/gzip/);
  });
});
