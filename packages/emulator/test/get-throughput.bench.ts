import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, bench, describe } from "vitest";
import { startEmulator, type RunningEmulator } from "../src/index.js";

// GET throughput on loopback, side by side with a bare node:http server answering a fixed JSON
// body (the benchmark: the emulator should reach at least half of it). Run with
// `npx vitest bench packages/emulator/test/get-throughput.bench.ts`.

const CONCURRENCY = 32;
const BODY = JSON.stringify({ status: "OK", module_version: "1.19.2", api_version: "1.30.5" });

async function startBare(): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(BODY) });
    response.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

// Started at import: the benchmark runner does not run beforeAll before the first bench.
const emulator: RunningEmulator = await startEmulator({ seed: "demo", log: () => undefined });
const bare = await startBare();

async function burst(url: string, headers: Record<string, string>): Promise<void> {
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => (await fetch(url, { headers })).text()));
}

describe("GET throughput on loopback", () => {
  afterAll(async () => {
    await emulator.close();
    bare.server.close();
  });

  bench("bare node:http, fixed JSON body", () => burst(bare.url, {}), { time: 3000 });
  bench("emulator GET /_health", () => burst(`${emulator.baseUrl}/_health`, { "x-vendor-api-user": "treasury-bot" }), { time: 3000 });
  bench("emulator GET /accounts/1", () => burst(`${emulator.baseUrl}/accounts/1`, { "x-vendor-api-user": "treasury-bot" }), { time: 3000 });
});
