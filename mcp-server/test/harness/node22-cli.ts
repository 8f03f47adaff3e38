import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The runners these tests use need Node 22 or later; CI has Node 20, so Node 22 comes from npm's `node` package. */
export const NODE_PACKAGE = "node@22";

/** An npm package whose CLI runs on Node 22: its name, exact version, the bin to run, and the cache folder's name. */
export interface Node22CliSpec {
  name: string;
  version: string;
  bin: string;
  /** Folder name under the git-ignored .tools/ (the version and node22 are added). */
  cacheName: string;
}

export interface Node22Cli {
  /** The Node 22 binary. */
  node: string;
  nodeVersion: string;
  /** The package's bin, run with `node`. */
  cli: string;
  cache: string;
  /** Milliseconds the install took; null when the cache was already there. */
  installMs: number | null;
}

function locate(spec: Node22CliSpec, cache: string): { node: string; cli: string } | null {
  const modules = join(cache, "node_modules");
  const nodeManifest = join(modules, "node", "package.json");
  const cliManifest = join(modules, ...spec.name.split("/"), "package.json");
  if (!existsSync(nodeManifest) || !existsSync(cliManifest)) return null;
  const nodeBin = (JSON.parse(readFileSync(nodeManifest, "utf8")) as { bin: { node: string } }).bin.node;
  const cliPackage = JSON.parse(readFileSync(cliManifest, "utf8")) as { version: string; bin: Record<string, string> };
  const bin = cliPackage.bin[spec.bin];
  if (cliPackage.version !== spec.version || bin === undefined) return null;
  const node = resolve(dirname(nodeManifest), nodeBin);
  const cli = resolve(dirname(cliManifest), bin);
  return existsSync(node) && existsSync(cli) ? { node, cli } : null;
}

function npmInstall(spec: Node22CliSpec, prefix: string): Promise<void> {
  const args = ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", NODE_PACKAGE, `${spec.name}@${spec.version}`];
  return new Promise((done, fail) => {
    const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", args, {
      cwd: prefix,
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`npm ${args.join(" ")} exited with ${code}:\n${output}`))));
  });
}

/**
 * Node 22 and the package's CLI, from the cache (mcp-server/.tools/, git-ignored, in no
 * package.json) or installed into it with npm. The install goes to a staging folder renamed into
 * place when complete, so an interrupted install is never taken for a cache.
 */
export async function node22Cli(spec: Node22CliSpec): Promise<Node22Cli> {
  const cache = fileURLToPath(new URL(`../../.tools/${spec.cacheName}-${spec.version}-node22/`, import.meta.url));
  let installMs: number | null = null;
  let found = locate(spec, cache);
  if (found === null) {
    const begun = Date.now();
    mkdirSync(dirname(cache), { recursive: true });
    const staging = mkdtempSync(join(dirname(cache), ".staging-"));
    try {
      await npmInstall(spec, staging);
      if (locate(spec, staging) === null)
        throw new Error(`npm installed ${NODE_PACKAGE} and ${spec.name}@${spec.version} into ${staging}, but the node binary or the CLI is missing`);
      // Another run may have completed the cache meanwhile: keep it.
      if (locate(spec, cache) === null) {
        rmSync(cache, { recursive: true, force: true });
        renameSync(staging, cache);
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    installMs = Date.now() - begun;
    found = locate(spec, cache);
    if (found === null) throw new Error(`the cache ${cache} is incomplete after its install`);
  }
  const nodeVersion = execFileSync(found.node, ["--version"], { encoding: "utf8" }).trim();
  if (!nodeVersion.startsWith("v22.")) throw new Error(`${found.node} is ${nodeVersion}, expected Node 22`);
  return { ...found, nodeVersion, cache, installMs };
}
