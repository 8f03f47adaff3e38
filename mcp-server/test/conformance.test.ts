import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBearerProxy, type BearerProxy } from "./harness/bearer-proxy.js";
import { buildBundle } from "./harness/built-bundle.js";
import { CONFORMANCE_PACKAGE, CONFORMANCE_VERSION, conformanceTools, type ConformanceTools } from "./harness/conformance-tools.js";
import { startHttpBundle, type HttpBundleServer } from "./harness/http-bundle-server.js";
import { tempDir } from "./harness/temp-dirs.js";

/**
 * The MCP conformance suite's scenarios that apply to any server, run by its own CLI (Node 22,
 * installed by npm into the git-ignored mcp-server/.tools/ on first run) over Streamable HTTP
 * against the bundle on the embedded demo workspace. The runner cannot send a bearer token, so
 * it talks to a loopback proxy that adds the token and forwards Host and Origin (see bearer-proxy.ts).
 */
const SCENARIOS = ["server-initialize", "ping", "tools-list", "resources-list", "prompts-list", "logging-set-level", "dns-rebinding-protection"] as const;

interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

interface ScenarioRun {
  exitCode: number | null;
  output: string;
  checks: Check[];
  ms: number;
}

const log = (line: string) => console.log(`conformance: ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let tools: ConformanceTools;
let server: HttpBundleServer;
let proxy: BearerProxy;
const timings: { step: string; ms: number }[] = [];

async function timed<T>(step: string, work: () => Promise<T> | T): Promise<T> {
  const begun = Date.now();
  try {
    return await work();
  } finally {
    timings.push({ step, ms: Date.now() - begun });
  }
}

function runScenario(scenario: string): Promise<ScenarioRun> {
  const outputDir = tempDir(`custody-mcp-conformance-${scenario}-`);
  const args = [tools.cli, "server", "--url", `${proxy.origin}/mcp`, "--scenario", scenario, "-o", outputDir];
  const begun = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(tools.node, args, { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: outputDir, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (exitCode) => {
      const checks: Check[] = [];
      for (const entry of readdirSync(outputDir, { withFileTypes: true })) {
        if (entry.isDirectory() && entry.name.startsWith(`server-${scenario}-`)) {
          checks.push(...(JSON.parse(readFileSync(join(outputDir, entry.name, "checks.json"), "utf8")) as Check[]));
        }
      }
      resolve({ exitCode, output, checks, ms: Date.now() - begun });
    });
  });
}

beforeAll(async () => {
  tools = await timed("install", () => conformanceTools());
  log(
    `${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION} on Node ${tools.nodeVersion}, from ${tools.cache} (${tools.installMs === null ? "cached" : `installed with npm in ${seconds(tools.installMs)}`})`,
  );
  const bundle = await timed("bundle", () => buildBundle());
  const token = randomBytes(24).toString("base64url");
  server = await timed("server start", () => startHttpBundle(bundle, [], { CUSTODY_MCP_TOKEN: token }));
  proxy = await startBearerProxy({ port: server.port, token });
  log(`server under test: the bundle with --http on the embedded demo workspace at ${server.url}; the runner reaches it through the bearer proxy ${proxy.origin}/mcp`);
}, 600_000);

afterAll(async () => {
  await proxy?.close();
  if (server) {
    const code = await server.stop();
    log(`server stopped with SIGTERM, exit code ${code}`);
  }
  if (timings.length > 0) log(`timings: ${timings.map((timing) => `${timing.step} ${seconds(timing.ms)}`).join(", ")}; total ${seconds(timings.reduce((sum, timing) => sum + timing.ms, 0))}`);
}, 60_000);

describe(`MCP conformance (${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION}) over Streamable HTTP`, () => {
  it.each(SCENARIOS)("%s", async (scenario) => {
    const run = await timed(scenario, () => runScenario(scenario));
    const failed = run.checks.filter((check) => check.status === "FAILURE");
    log(`${scenario}: ${failed.length === 0 && run.exitCode === 0 ? "PASS" : "FAIL"} (${run.checks.length} checks, exit code ${run.exitCode}, ${seconds(run.ms)})`);
    for (const check of run.checks) log(`  ${check.status.padEnd(7)} ${check.id}${check.errorMessage ? `: ${check.errorMessage}` : ""}`);
    expect(run.checks.length, `${scenario} ran no check:\n${run.output}`).toBeGreaterThan(0);
    expect(failed.map((check) => `${check.id}: ${check.errorMessage ?? check.description ?? ""}`), run.output).toEqual([]);
    expect(run.exitCode, run.output).toBe(0);
  }, 120_000);
});
