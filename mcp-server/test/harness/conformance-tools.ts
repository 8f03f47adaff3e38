import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const CONFORMANCE_PACKAGE = "@modelcontextprotocol/conformance";
export const CONFORMANCE_VERSION = "0.2.0-alpha.12";
/** The conformance runner needs Node 22 or later; CI has Node 20, so Node 22 comes from npm's `node` package. */
export const NODE_PACKAGE = "node@22";

/** Git-ignored (.tools/), outside every package.json: the test installs it on first run. */
const CACHE = fileURLToPath(new URL(`../../.tools/conformance-${CONFORMANCE_VERSION}-node22/`, import.meta.url));

export interface ConformanceTools {
  /** The Node 22 binary. */
  node: string;
  nodeVersion: string;
  /** The runner's entry point (its `conformance` bin). */
  cli: string;
  cache: string;
  /** Milliseconds the install took; null when the cache was already there. */
  installMs: number | null;
}

function locate(cache: string): { node: string; cli: string } | null {
  const modules = join(cache, "node_modules");
  const nodeManifest = join(modules, "node", "package.json");
  const cliManifest = join(modules, ...CONFORMANCE_PACKAGE.split("/"), "package.json");
  if (!existsSync(nodeManifest) || !existsSync(cliManifest)) return null;
  const nodeBin = (JSON.parse(readFileSync(nodeManifest, "utf8")) as { bin: { node: string } }).bin.node;
  const cliPackage = JSON.parse(readFileSync(cliManifest, "utf8")) as { version: string; bin: { conformance: string } };
  if (cliPackage.version !== CONFORMANCE_VERSION) return null;
  const node = resolve(dirname(nodeManifest), nodeBin);
  const cli = resolve(dirname(cliManifest), cliPackage.bin.conformance);
  return existsSync(node) && existsSync(cli) ? { node, cli } : null;
}

function npmInstall(prefix: string): Promise<void> {
  const args = ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", NODE_PACKAGE, `${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION}`];
  return new Promise((done, fail) => {
    const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", args, { cwd: prefix, stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`npm ${args.join(" ")} exited with ${code}:\n${output}`))));
  });
}

/**
 * Node 22 and the conformance runner, from the cache or installed into it with npm. The install
 * goes to a staging folder renamed into place when complete, so an interrupted install is never
 * taken for a cache.
 */
export async function conformanceTools(): Promise<ConformanceTools> {
  let installMs: number | null = null;
  let found = locate(CACHE);
  if (found === null) {
    const begun = Date.now();
    mkdirSync(dirname(CACHE), { recursive: true });
    const staging = mkdtempSync(join(dirname(CACHE), ".staging-"));
    try {
      await npmInstall(staging);
      if (locate(staging) === null) throw new Error(`npm installed ${NODE_PACKAGE} and ${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION} into ${staging}, but the node binary or the runner is missing`);
      // Another run may have completed the cache meanwhile: keep it.
      if (locate(CACHE) === null) {
        rmSync(CACHE, { recursive: true, force: true });
        renameSync(staging, CACHE);
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    installMs = Date.now() - begun;
    found = locate(CACHE);
    if (found === null) throw new Error(`the conformance cache ${CACHE} is incomplete after its install`);
  }
  const nodeVersion = execFileSync(found.node, ["--version"], { encoding: "utf8" }).trim();
  if (!nodeVersion.startsWith("v22.")) throw new Error(`${found.node} is ${nodeVersion}, expected Node 22`);
  return { ...found, nodeVersion, cache: CACHE, installMs };
}
