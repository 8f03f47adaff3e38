import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { E2eTools } from "./e2e-tools.js";

export interface CodeServerSession {
  url: string;
  workspace: string;
  /** The HOME code-server and the extension run with: the default audit log is under it. */
  home: string;
  logs(): string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitUntilServing(url: string, child: ChildProcess, logs: () => string, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${logs()}`);
    try {
      const response = await fetch(url, { redirect: "manual" });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`code-server did not answer within ${timeoutMs} ms:\n${logs()}`);
}

/**
 * code-server with the .vsix installed in a fresh extensions folder and a fresh profile whose
 * user settings keep the workbench quiet. Workspace trust is off: in Restricted Mode the extension
 * only reads (capabilities.untrustedWorkspaces), and the suite writes.
 */
export async function startCodeServer(tools: E2eTools, root: string, userSettings: Record<string, unknown>): Promise<CodeServerSession> {
  const extensionsDir = join(root, "extensions");
  const userDataDir = join(root, "user-data");
  const workspace = join(root, "workspace");
  const config = join(root, "code-server.yaml");
  // A home of its own: the extension's default audit log and seal key live under ~/.custody-mcp, which must not be this machine's.
  const home = join(root, "home");
  for (const dir of [extensionsDir, join(userDataDir, "User"), workspace, home]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(userDataDir, "User", "settings.json"), JSON.stringify(userSettings, null, 2));
  writeFileSync(config, "auth: none\n");
  const common = ["--config", config, "--extensions-dir", extensionsDir, "--user-data-dir", userDataDir];
  const install = spawnSync(tools.node, [tools.codeServerEntry, ...common, "--install-extension", tools.vsix], { encoding: "utf8", timeout: 180_000 });
  if (install.status !== 0) throw new Error(`installing ${tools.vsix} failed (${install.status}):\n${install.stdout}\n${install.stderr}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  let output = "";
  const child = spawn(
    tools.node,
    [
      tools.codeServerEntry,
      ...common,
      "--auth",
      "none",
      "--bind-addr",
      `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      workspace,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(root, "xdg-config"), XDG_DATA_HOME: join(root, "xdg-data") },
    },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitUntilServing(url, child, () => output);
  return {
    url: `${url}?folder=${encodeURIComponent(workspace)}`,
    workspace,
    home,
    logs: () => output,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}
