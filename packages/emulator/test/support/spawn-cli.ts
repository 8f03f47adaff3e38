import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
export const REPO_DIR = fileURLToPath(new URL("../../../..", import.meta.url));

export interface Ready {
  base_url: string;
  control_url: string;
  operators: string[];
}

export interface CliProcess {
  child: ChildProcess;
  ready: Ready;
  stderr: () => string;
}

/** Runs `custody-emulator <args>` (the built launcher) and waits for its one JSON line. */
export function spawnCli(args: readonly string[], timeoutMs = 20_000): Promise<CliProcess> {
  const child = spawn(process.execPath, [`${PACKAGE_DIR}bin/custody-emulator.js`, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the emulator did not get ready in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline === -1) return;
      clearTimeout(timer);
      try {
        resolve({ child, ready: JSON.parse(out.slice(0, newline)) as Ready, stderr: () => err });
      } catch (error) {
        reject(error as Error);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited with ${String(code)} before it was ready: ${err}`));
    });
  });
}

export function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
