import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { childHome } from "./temp-dirs.js";

export interface HttpBundleServer {
  child: ChildProcessWithoutNullStreams;
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  port: number;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The built bundle serving Streamable HTTP on a free loopback port; resolves once it listens. */
export function startHttpBundle(bundle: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<HttpBundleServer> {
  const child = spawn(process.execPath, [bundle, "--http", "--port", "0", ...args], {
    env: { PATH: process.env.PATH ?? "", ...childHome(), ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let listening = false;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not start within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening; stderr:\n${stderr}`));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /Streamable HTTP at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(stderr);
      if (listening || match?.[1] === undefined || match[2] === undefined) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1],
        port: Number(match[2]),
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          return exited;
        },
      });
    });
  });
}
