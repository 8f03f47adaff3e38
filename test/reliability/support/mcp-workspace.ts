import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "@custody/emulator";
import { ConfirmationTokens, ConfirmPages, createMcpServer, CurrencyBook, tokenFromText, type ServerContext } from "@custody/mcp-server";
import { CustodyClient, DEFAULT_POLICY, FileGuardStore, Policy, WriteRoad, type CustodyClientOptions } from "@custody/shared";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { z } from "zod";

/** The emulator in-process, in memory, quiet, with fast signing and broadcast. */
export function startQuietEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ dataDir: null, port: 0, log: () => undefined, processingDelayMs: 20, tickMs: 10, ...options });
}

export interface SessionOptions {
  operator?: string;
  policy?: z.input<typeof Policy>;
  /** Share one token issuer between sessions (one server process serving several sessions). */
  tokens?: ConfirmationTokens;
  auditPath?: string;
  retry?: CustodyClientOptions["retry"];
  timeoutMs?: number;
}

export interface McpSession {
  client: Client;
  ctx: ServerContext;
  auditPath: string;
  close(): Promise<void>;
}

/**
 * The MCP server's context as `startContext` builds it for a configured base URL, and a real MCP
 * client connected to a server on it in memory. The client declares no elicitation: the
 * confirmation token is the only confirmation.
 */
export async function openMcpSession(emulator: RunningEmulator, options: SessionOptions = {}): Promise<McpSession> {
  const operator = options.operator ?? "treasury-bot";
  const ownDir = options.auditPath === undefined ? mkdtempSync(join(tmpdir(), "custody-reliability-")) : null;
  const auditPath = options.auditPath ?? join(ownDir as string, "audit.jsonl");
  const now = () => new Date();
  const clientOptions: CustodyClientOptions = { baseUrl: emulator.baseUrl, operator };
  if (options.retry !== undefined) clientOptions.retry = options.retry;
  if (options.timeoutMs !== undefined) clientOptions.timeoutMs = options.timeoutMs;
  const client = new CustodyClient(clientOptions);
  const policy = options.policy === undefined ? DEFAULT_POLICY : Policy.parse(options.policy);
  const store = new FileGuardStore(auditPath, now);
  const ctx: ServerContext = {
    client,
    operator,
    policy,
    store,
    road: new WriteRoad({ client, operator, policy: () => policy, store, surface: "mcp" }),
    tokens: options.tokens ?? new ConfirmationTokens(),
    currencies: new CurrencyBook(client),
    now,
    embedded: false,
    pages: new ConfirmPages(),
    forPerson: () => ctx,
  };
  const server = createMcpServer(ctx);
  const mcp = new Client({ name: "reliability", version: "0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await mcp.connect(clientSide);
  return {
    client: mcp,
    ctx,
    auditPath,
    /** Ends the session and removes the audit log's temporary directory (when the session made it). */
    close: async () => {
      await mcp.close();
      await server.close();
      if (ownDir !== null) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}

export interface ToolAnswer {
  structured: Record<string, unknown> & { status?: string; error?: string; reference?: string };
  text: string;
  /** The confirmation token a dry run's text carries. */
  token: string | undefined;
  isError: boolean;
  /** Set when the call was answered with a JSON-RPC error instead of a tool result. */
  protocolError: string | null;
}

/** Calls a tool; a JSON-RPC error is returned as `protocolError`, never thrown. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  try {
    const result = await client.callTool({ name, arguments: args });
    const text = ((result.content ?? []) as { type: string; text?: string }[]).map((item) => item.text ?? "").join("\n");
    return {
      structured: (result.structuredContent ?? {}) as ToolAnswer["structured"],
      text,
      isError: result.isError === true,
      protocolError: null,
      token: tokenFromText(text),
    };
  } catch (error) {
    return { structured: {}, text: "", isError: true, protocolError: error instanceof Error ? error.message : String(error), token: undefined };
  }
}

/** Every transaction of the workspace, as one operator reads it. */
export async function transactionCount(emulator: RunningEmulator, operator = "treasury-bot"): Promise<number> {
  const page = await new CustodyClient({ baseUrl: emulator.baseUrl, operator }).searchTransactions({ page: 1, page_size: 1 });
  return page.page_info.count;
}
