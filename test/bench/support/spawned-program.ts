import { spawn, type ChildProcess } from "node:child_process";
import { peakRssKb } from "./peak-rss.js";

export interface SpawnedProgram<Ready> {
  child: ChildProcess;
  /** The JSON line the program printed when ready. */
  ready: Ready;
  pid: number | undefined;
  stderr(): string;
  peakRssKb(): number | null;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
  stop(): Promise<void>;
}

/** Runs `node <args>` and waits for the first line of stdout, a JSON object. */
export function spawnUntilReady<Ready>(args: readonly string[], timeoutMs = 60_000): Promise<SpawnedProgram<Ready>> {
  const child = spawn(process.execPath, [...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-8000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")}: not ready within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline === -1) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stdout?.resume();
      const ready = JSON.parse(out.slice(0, newline)) as Ready;
      resolve({
        child,
        ready,
        pid: child.pid,
        stderr: () => err,
        peakRssKb: () => peakRssKb(child.pid),
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
          await exited;
          clearTimeout(timer);
        },
      });
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")}: exited (${code ?? signal}) before it was ready: ${err}`));
    });
  });
}

/** The emulator CLI's ready line. */
export interface EmulatorReady {
  base_url: string;
  control_url: string;
  operators: string[];
}

/** `custody-emulator serve <args>` from a bundle of its CLI. */
export function spawnEmulator(cliBundle: string, args: readonly string[]): Promise<SpawnedProgram<EmulatorReady>> {
  return spawnUntilReady<EmulatorReady>([cliBundle, "serve", ...args]);
}
