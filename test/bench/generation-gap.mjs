// The per-call gap between the two generations over Streamable HTTP, in process-level detail:
// a demo emulator, the built server with --http on it, then get_account by name alternated
// between a 2025-11-25 session and 2026-07-28 requests, p50 of each.
//   node test/bench/generation-gap.mjs <custody-mcp.js>[,<another>] [calls=2000] [--scale <accounts>] [--cpu-prof <dir>] [--only 2025|2026]
// With --cpu-prof the server runs under node --cpu-prof (profile written at its exit into <dir>);
// several bundles are timed side by side (calls alternate between them);
// with --only, only that generation is called in the timed loop (one profile per generation).
// Also printed: each server's CPU time a call (all its threads, from /proc) and the client's.
// GAP_THREADS=1 prints each server thread's CPU time; GAP_STDERR=<text> the server's stderr lines holding it.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createServer } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const args = process.argv.slice(2);
const bundles = args[0].split(",");
const calls = Number(args.find((arg, index) => index > 0 && /^\d+$/.test(arg)) ?? 2000);
const profDir = args.includes("--cpu-prof") ? args[args.indexOf("--cpu-prof") + 1] : null;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const scale = args.includes("--scale") ? Number(args[args.indexOf("--scale") + 1]) : 0;
const TOKEN = "generation-gap-shared-bearer-token-0123456789";
const EMULATOR = fileURLToPath(new URL("../../packages/emulator/dist/cli.js", import.meta.url));

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function startProcess(argv, env, readyWhen) {
  const child = spawn(process.execPath, argv, { env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const ready = new Promise((resolve, reject) => {
    const check = () => {
      const found = readyWhen(out, err);
      if (found) resolve(found);
    };
    child.stdout.on("data", (chunk) => ((out += chunk), check()));
    child.stderr.on("data", (chunk) => ((err += chunk), check()));
    child.once("exit", (code) => reject(new Error(`${argv.join(" ")} exited ${code}: ${err}`)));
  });
  return { child, ready, exited, stderr: () => err };
}

async function open(url, revision) {
  const client = new Client({ name: "gap", version: "0" }, revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const emulator = startProcess([EMULATOR, "serve", "--seed", "demo", "--processing-delay-ms", "0"], {}, (out) => {
  const line = out.split("\n").find((one) => one.startsWith("{"));
  return line ? JSON.parse(line) : null;
});
const { base_url: baseUrl, control_url: controlUrl } = await emulator.ready;
let accountName = "sol-cold";
if (scale > 0) {
  const seeded = await fetch(`${controlUrl}/seed/scale`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accounts: scale, transactions: 10, operator: "treasury-bot" }),
  });
  accountName = (await seeded.json()).accounts.last_name;
}
const servers = [];
for (const bundle of bundles) {
  const home = mkdtempSync(join(tmpdir(), "generation-gap-"));
  writeFileSync(join(home, "token-secret"), Buffer.alloc(32, 7), { mode: 0o600 });
  const port = await freePort();
  const server = startProcess(
    [...(profDir ? ["--cpu-prof", "--cpu-prof-dir", profDir] : []), bundle, "--http", "--port", String(port)],
    {
      HOME: home,
      CUSTODY_BASE_URL: baseUrl,
      CUSTODY_OPERATOR: "treasury-bot",
      CUSTODY_MCP_TOKEN: TOKEN,
      CUSTODY_AUDIT_LOG: join(home, "audit.jsonl"),
      CUSTODY_TOKEN_SECRET_FILE: join(home, "token-secret"),
    },
    (_out, err) => err.includes("warmed up in "),
  );
  servers.push({ bundle, server, url: `http://127.0.0.1:${port}/mcp` });
}
try {
  for (const one of servers) {
    await one.server.ready;
    one.modern = await open(one.url, "2026-07-28");
    one.legacy = await open(one.url, "2025-11-25");
    one.samples = { 2025: [], 2026: [] };
  }
  const byName = (client) => async () => {
    const started = performance.now();
    const result = await client.callTool({ name: "get_account", arguments: { account: accountName } });
    const took = performance.now() - started;
    if (result.structuredContent?.account?.name !== accountName) throw new Error(JSON.stringify(result).slice(0, 300));
    return took;
  };
  for (let warm = 0; warm < 300; warm += 1)
    for (const one of servers) {
      await byName(one.modern)();
      await byName(one.legacy)();
    }
  const cpuMs = (pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  for (const one of servers) one.cpuBefore = cpuMs(one.server.child.pid);
  const clientBefore = process.cpuUsage();
  for (let done = 0; done < calls; done += 5)
    for (const one of servers) {
      for (let call = 0; call < 5; call += 1) if (only !== "2025") one.samples[2026].push(await byName(one.modern)());
      for (let call = 0; call < 5; call += 1) if (only !== "2026") one.samples[2025].push(await byName(one.legacy)());
    }
  const clientCpu = process.cpuUsage(clientBefore);
  const clientCalls = servers.reduce((sum, one) => sum + one.samples[2025].length + one.samples[2026].length, 0);
  console.log(`client CPU ${((clientCpu.user + clientCpu.system) / clientCalls).toFixed(0)} µs a call`);
  const p50 = (values) => (values.length === 0 ? "n/a" : median(values).toFixed(3));
  for (const one of servers) {
    const cpuPerCall = ((cpuMs(one.server.child.pid) - one.cpuBefore) * 1000) / (one.samples[2025].length + one.samples[2026].length);
    console.log(
      `${one.bundle}: p50 2025-11-25 ${p50(one.samples[2025])} ms, 2026-07-28 ${p50(one.samples[2026])} ms (${calls} calls each); ` +
        `server CPU ${cpuPerCall.toFixed(0)} µs a call`,
    );
    if (process.env.GAP_THREADS)
      for (const task of readdirSync(`/proc/${one.server.child.pid}/task`)) {
        const stat = readFileSync(`/proc/${one.server.child.pid}/task/${task}/stat`, "utf8");
        const fields = stat.split(") ")[1].split(" ");
        console.log(`  thread ${stat.split(" (")[1].split(")")[0]}: ${((Number(fields[11]) + Number(fields[12])) * 10).toFixed(0)} ms`);
      }
    await one.modern.close();
    await one.legacy.close();
  }
} finally {
  for (const { server } of servers) {
    server.child.kill("SIGTERM");
    await server.exited;
    if (process.env.GAP_STDERR)
      console.log(
        server
          .stderr()
          .split("\n")
          .filter((line) => line.includes(process.env.GAP_STDERR))
          .join("\n"),
      );
  }
  emulator.child.kill("SIGTERM");
  await emulator.exited;
}
