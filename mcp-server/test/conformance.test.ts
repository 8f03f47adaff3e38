import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBearerProxy, type BearerProxy } from "./harness/bearer-proxy.js";
import { buildBundle } from "./harness/built-bundle.js";
import { CONFORMANCE_PACKAGE, CONFORMANCE_VERSION, conformanceTools, type ConformanceTools } from "./harness/conformance-tools.js";
import { startHttpBundle, type HttpBundleServer } from "./harness/http-bundle-server.js";
import { tempDir } from "./harness/temp-dirs.js";

/**
 * The MCP conformance suite's requirements for the revisions this server speaks, 2025-11-25 (the
 * initialize handshake, sessions) and 2026-07-28 (stateless, _meta on every request), run by its
 * own CLI (Node 22, installed by npm into the git-ignored mcp-server/.tools/ on first run) over
 * Streamable HTTP against the bundle on the embedded demo workspace. What the server is known to
 * fail is listed, each with its reason, in conformance/expected-failures-<revision>.yml: the
 * runner fails on any other failure, and on a listed one that passes. The runner cannot send a
 * bearer token, so it talks to a loopback proxy that adds the token and forwards Host and Origin
 * (see bearer-proxy.ts).
 */
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
const EXPECTED_FAILURES = (revision: string) => fileURLToPath(new URL(`conformance/expected-failures-${revision}.yml`, import.meta.url));

interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

interface RequirementsRun {
  exitCode: number | null;
  output: string;
  /** Each scenario's checks. */
  scenarios: Map<string, Check[]>;
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

/** The server scenarios a revision requires, as the runner lists them. */
function requiredScenarios(revision: string): Set<string> {
  const listing = execFileSync(tools.node, [tools.cli, "list", "--requirements", revision], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
  });
  const servers = listing.split("Server scenarios")[1]?.split("Client scenarios")[0] ?? "";
  return new Set([...servers.matchAll(/^\s+- (\S+)$/gm)].map((match) => match[1] as string));
}

function runRequirements(revision: string): Promise<RequirementsRun> {
  const outputDir = tempDir(`custody-mcp-conformance-${revision}-`);
  const args = [
    tools.cli,
    "server",
    "--url",
    `${proxy.origin}/mcp`,
    "--requirements",
    revision,
    "--expected-failures",
    EXPECTED_FAILURES(revision),
    "-o",
    outputDir,
  ];
  const begun = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(tools.node, args, { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: outputDir, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (exitCode) => {
      const scenarios = new Map<string, Check[]>();
      for (const entry of readdirSync(outputDir, { withFileTypes: true })) {
        const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry.name)?.[1];
        if (entry.isDirectory() && scenario !== undefined)
          scenarios.set(scenario, JSON.parse(readFileSync(join(outputDir, entry.name, "checks.json"), "utf8")) as Check[]);
      }
      resolve({ exitCode, output, scenarios, ms: Date.now() - begun });
    });
  });
}

beforeAll(async () => {
  tools = await timed("install", () => conformanceTools());
  log(
    `${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION} on Node ${tools.nodeVersion}, from ${tools.cache} ` +
      `(${tools.installMs === null ? "cached" : `installed with npm in ${seconds(tools.installMs)}`})`,
  );
  const bundle = await timed("bundle", () => buildBundle());
  const token = randomBytes(24).toString("base64url");
  server = await timed("server start", () => startHttpBundle(bundle, [], { CUSTODY_MCP_TOKEN: token }));
  proxy = await startBearerProxy({ port: server.port, token });
  log(
    `server under test: the bundle with --http on the embedded demo workspace at ${server.url}; ` +
      `the runner reaches it through the bearer proxy ${proxy.origin}/mcp`,
  );
}, 600_000);

afterAll(async () => {
  await proxy?.close();
  if (server) {
    const code = await server.stop();
    log(`server stopped with SIGTERM, exit code ${code}`);
  }
  if (timings.length > 0)
    log(
      `timings: ${timings.map((timing) => `${timing.step} ${seconds(timing.ms)}`).join(", ")}; ` +
        `total ${seconds(timings.reduce((sum, timing) => sum + timing.ms, 0))}`,
    );
}, 60_000);

describe(`MCP conformance (${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION}) over Streamable HTTP`, () => {
  it.each(REVISIONS)(
    "the %s requirements: every scenario passes but those listed, with their reasons, as expected failures",
    async (revision) => {
      const run = await timed(revision, () => runRequirements(revision));
      // The runner also runs, without scoring them, extensions and scenarios added after the revision: reported apart.
      const required = requiredScenarios(revision);
      const scored = [...run.scenarios].filter(([scenario]) => required.has(scenario));
      const notScored = new Set([...run.scenarios.keys()].filter((scenario) => !required.has(scenario)));
      const checks = scored.flatMap(([, scenarioChecks]) => scenarioChecks);
      const clean = scored.filter(([, scenarioChecks]) => scenarioChecks.every((check) => check.status === "SUCCESS")).length;
      log(
        `${revision}: ${scored.length} required scenarios, ${clean} without a failure or warning; ` +
          `${checks.filter((check) => check.status === "SUCCESS").length} of ${checks.length} checks pass; ` +
          `${notScored.size} more run unscored; exit code ${run.exitCode} (${seconds(run.ms)})`,
      );
      for (const [scenario, scenarioChecks] of scored) {
        for (const check of scenarioChecks)
          if (check.status !== "SUCCESS") log(`  ${scenario}: ${check.status.padEnd(7)} ${check.id}${check.errorMessage ? `: ${check.errorMessage}` : ""}`);
      }
      expect(run.scenarios.size, `the ${revision} requirements ran no scenario:\n${run.output}`).toBeGreaterThan(0);
      expect(run.exitCode, run.output).toBe(0);
    },
    300_000,
  );
});
