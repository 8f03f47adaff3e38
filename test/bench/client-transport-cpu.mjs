// The CPU a GET costs this process, by transport: shared's CustodyClient on its own node:http path
// against the same client given Node's fetch, 2,000 sequential getAccount calls each, in alternating
// blocks, against the emulator in a process of its own (its CPU is not counted).
// Run after `npx tsc -b`: node test/bench/client-transport-cpu.mjs [calls per transport]
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CustodyClient } from "../../shared/dist/index.js";

const CALLS = Number(process.argv[2] ?? 2000);
const BLOCK = 250;
const WARM_UP = 200;

const emulatorBin = fileURLToPath(new URL("../../packages/emulator/bin/custody-emulator.js", import.meta.url));
const emulator = spawn(process.execPath, [emulatorBin, "serve", "--seed", "demo", "--processing-delay-ms", "10"], { stdio: ["ignore", "pipe", "inherit"] });
const ready = JSON.parse(await new Promise((resolve) => createInterface({ input: emulator.stdout }).once("line", resolve)));

const variants = {
  "node:http": new CustodyClient({ baseUrl: ready.base_url, operator: "treasury-bot" }),
  fetch: new CustodyClient({ baseUrl: ready.base_url, operator: "treasury-bot", fetch: globalThis.fetch }),
};
const accountId = (await variants["node:http"].listAccounts({ page_size: 1 })).edges[0].node.id;
const totals = Object.fromEntries(Object.keys(variants).map((name) => [name, { cpuUs: 0, wall: [] }]));

for (const client of Object.values(variants)) for (let index = 0; index < WARM_UP; index += 1) await client.getAccount(accountId);
for (let done = 0; done < CALLS; done += BLOCK) {
  for (const [name, client] of Object.entries(variants)) {
    const before = process.cpuUsage();
    for (let index = 0; index < BLOCK; index += 1) {
      const started = performance.now();
      await client.getAccount(accountId);
      totals[name].wall.push(performance.now() - started);
    }
    const used = process.cpuUsage(before);
    totals[name].cpuUs += used.user + used.system;
  }
}
emulator.kill("SIGTERM");

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, { cpuUs, wall }] of Object.entries(totals)) {
  const cpuMs = cpuUs / 1000 / wall.length;
  console.log(`${name}: ${wall.length} GETs, CPU ${cpuMs.toFixed(3)} ms a request, wall p50 ${median(wall).toFixed(3)} ms`);
}
