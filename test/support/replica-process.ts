import { spawn, type ChildProcess } from "node:child_process";

/** One MCP server replica: the bundle serving Streamable HTTP on a fixed loopback port. */
export interface ReplicaProcess {
  id: string;
  port: number;
  /** Everything the replica wrote on stderr, across its restarts. */
  stderr(): string;
  /** Resolves once stderr holds `text` (it arrives in chunks of its own, after whatever the process did meanwhile); fails after `timeoutMs` naming it. */
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
  /** Whether the process is up (it has not exited since its last start). */
  running(): boolean;
  /** kill -9: no graceful stop, nothing flushed. */
  kill(): Promise<void>;
  /** Starts it again on the same port (the balancer's configuration names it). */
  restart(): Promise<void>;
  /** SIGTERM, a graceful stop. */
  stop(): Promise<void>;
}

/** Starts the bundle as replica `id` on `port` with `env` (its store, secrets, policy); resolves once it listens. */
export async function startReplica(bundle: string, id: string, port: number, env: Record<string, string>): Promise<ReplicaProcess> {
  let log = "";
  const waiters = new Set<() => void>();
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const started = spawn(process.execPath, [bundle, "--http", "--port", String(port), "--replica-id", id], {
        env: { PATH: process.env.PATH ?? "", ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      child = started;
      exited = new Promise((done) => started.once("exit", () => done()));
      let mine = "";
      const timer = setTimeout(() => reject(new Error(`replica ${id} did not listen within 30 s:\n${mine}`)), 30_000);
      started.stderr?.on("data", (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        mine += text;
        log += text;
        for (const waiter of waiters) waiter();
        if (mine.includes("Streamable HTTP at")) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`replica ${id} exited with ${code} before listening:\n${mine}`));
      });
    });
  const signal = async (name: NodeJS.Signals) => {
    const running = child as ChildProcess | null;
    if (running !== null && running.exitCode === null && running.signalCode === null) running.kill(name);
    await exited;
  };
  process.once("exit", () => (child as ChildProcess | null)?.kill("SIGKILL"));
  await launch();
  const running = () => {
    const current = child as ChildProcess | null;
    return current !== null && current.exitCode === null && current.signalCode === null;
  };
  const waitForStderr = (text: string, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!log.includes(text)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`replica ${id} did not write ${JSON.stringify(text)} within ${timeoutMs / 1000} s:\n${log}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { id, port, stderr: () => log, waitForStderr, running, kill: () => signal("SIGKILL"), restart: launch, stop: () => signal("SIGTERM") };
}
