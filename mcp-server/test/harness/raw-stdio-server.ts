import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { childHome } from "./temp-dirs.js";

export interface RpcMessage {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * The built bundle as a child process, spoken to in raw JSON-RPC lines: unlike the SDK's client,
 * it lets a test close stdin or send a signal at an exact moment and still read every answer.
 */
export class RawStdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: RpcMessage[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #waiters: (() => void)[] = [];

  constructor(bundle: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, [bundle], { env: { PATH: process.env.PATH ?? "", ...childHome(), ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let buffered = "";
    this.child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== "") this.messages.push(JSON.parse(line) as RpcMessage);
      }
      this.#notify();
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
      this.#notify();
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  send(message: Omit<RpcMessage, "jsonrpc">): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  /** Resolves when the condition holds, re-checked on every line read; fails after timeoutMs. */
  async until<T>(what: string, found: () => T | undefined, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  answer(id: number): Promise<RpcMessage> {
    return this.until(`the answer to request ${id}`, () => this.messages.find((message) => message.id === id && message.method === undefined));
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<void> {
    this.send({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "raw-stdio-test", version: "0" } } });
    await this.answer(0);
    this.send({ method: "notifications/initialized" });
  }

  callTool(id: number, name: string, args: Record<string, unknown>): void {
    this.send({ id, method: "tools/call", params: { name, arguments: args } });
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
