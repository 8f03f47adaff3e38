import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { performance } from "node:perf_hooks";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/server";

/** The two generations the server speaks: a 2025-11-25 session (initialize), or 2026-07-28 (server/discover, every request carrying its revision in _meta). */
export type Revision = "2025-11-25" | "2026-07-28";
export const REVISIONS: readonly Revision[] = ["2025-11-25", "2026-07-28"];

const CLIENT_INFO = { name: "custody-bench", version: "0" };
/** The envelope every 2026-07-28 request carries. */
const MODERN_ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": {},
};
import { peakRssKb } from "./peak-rss.js";

export interface RpcAnswer {
  /** The `result` of the JSON-RPC answer. */
  result: Record<string, unknown>;
  /** Bytes of the answer's line on stdout, newline excluded. */
  bytes: number;
}

export interface ProgramCommand {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** The Node binary (default: the bench's own). */
  node?: string;
}

/**
 * A stdio MCP server driven by hand: newline-delimited JSON-RPC, no SDK on the client side, so
 * every server is measured with the same (tiny) client cost.
 */
export class StdioRpcSession {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<number, { resolve: (answer: RpcAnswer) => void; reject: (error: Error) => void }>();
  #buffer = "";
  #stderr = "";
  #nextId = 1;
  #exited: Promise<void>;
  #revision: Revision = "2025-11-25";

  private constructor(command: ProgramCommand) {
    this.#child = spawn(command.node ?? process.execPath, [...command.args], { env: { ...command.env }, stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => this.#read(chunk));
    this.#child.stderr.on("data", (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-4000);
    });
    this.#exited = new Promise((resolve) => {
      this.#child.once("exit", (code, signal) => {
        for (const waiter of this.#waiting.values()) waiter.reject(new Error(`the server exited (${code ?? signal}) before answering: ${this.#stderr}`));
        this.#waiting.clear();
        resolve();
      });
    });
  }

  static spawn(command: ProgramCommand): StdioRpcSession {
    return new StdioRpcSession(command);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
    const id = this.#nextId++;
    const answer = new Promise<RpcAnswer>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    const sent = this.#revision === "2026-07-28" ? { ...params, _meta: MODERN_ENVELOPE } : params;
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: sent })}\n`);
    return answer;
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  /** The MCP handshake: initialize, then notifications/initialized. */
  async initialize(): Promise<RpcAnswer> {
    const answer = await this.request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
    this.notify("notifications/initialized");
    return answer;
  }

  /** The opening of the revision: a 2025 session's handshake, or 2026-07-28's server/discover (after which every request carries the envelope). */
  async open(revision: Revision): Promise<RpcAnswer> {
    if (revision === "2025-11-25") return this.initialize();
    this.#revision = revision;
    return this.request("server/discover");
  }

  /** Resolves once the server has written `text` to stderr (its log), or fails after `timeoutMs`. */
  async waitForStderr(text: string, timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!this.#stderr.includes(text)) {
      if (performance.now() > deadline) throw new Error(`no "${text}" on the server's stderr within ${timeoutMs} ms: ${this.#stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The tail of the server's stderr. */
  stderr(): string {
    return this.#stderr;
  }

  /** The peak RSS so far, in KiB. */
  peakRssKb(): number | null {
    return peakRssKb(this.#child.pid);
  }

  /** Closes stdin (the way a client ends a stdio session); kills the process if it lingers. */
  async close(): Promise<void> {
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 3000);
    await this.#exited;
    clearTimeout(timer);
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    for (let newline = this.#buffer.indexOf("\n"); newline !== -1; newline = this.#buffer.indexOf("\n")) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line.trim() === "") continue;
      const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
      if (typeof message.id !== "number") continue;
      const waiter = this.#waiting.get(message.id);
      if (!waiter) continue;
      this.#waiting.delete(message.id);
      if (message.error) waiter.reject(new Error(`JSON-RPC error: ${message.error.message}`));
      else waiter.resolve({ result: message.result ?? {}, bytes: Buffer.byteLength(line, "utf8") });
    }
  }
}

export interface ColdStartSample {
  /** From spawn to the opening's answer (initialize, or server/discover). */
  initializeMs: number;
  /** From spawn to the tools/list answer. */
  toolsListMs: number;
  toolsList: RpcAnswer;
  /** With `loaded`: from spawn to a prompts/list answered after tools/list, which the whole server answers (not the custody server's opening front). */
  loadedMs: number | null;
  peakRssKb: number | null;
}

/**
 * One cold start: spawn, the revision's opening (initialize, or server/discover), tools/list
 * answered; with `loaded`, then prompts/list (the server loaded), before the peak memory is read.
 * Then the session is closed.
 */
export async function coldStart(command: ProgramCommand, revision: Revision = "2025-11-25", loaded = false): Promise<ColdStartSample> {
  const started = performance.now();
  const session = StdioRpcSession.spawn(command);
  try {
    await session.open(revision);
    const initializeMs = performance.now() - started;
    const toolsList = await session.request("tools/list");
    const toolsListMs = performance.now() - started;
    if (loaded) await session.request("prompts/list");
    const loadedMs = loaded ? performance.now() - started : null;
    return { initializeMs, toolsListMs, toolsList, loadedMs, peakRssKb: session.peakRssKb() };
  } finally {
    await session.close();
  }
}
