import { ConfirmPages } from "../../src/confirm-page/confirm-pages.js";
import type { PersonOpener } from "../../src/confirm-page/person-opener.js";
import { join } from "node:path";
import { CustodyClient, DEFAULT_POLICY, FileGuardStore, grantFor, grantOperator, Policy, WriteRoad, type GuardStore, type Person } from "@custody/shared";
import { startEmulator, type RunningEmulator } from "@custody/emulator";
import { Client, InMemoryTransport, type ElicitResult } from "@modelcontextprotocol/client";
import type { z } from "zod";
import { ConfirmationTokens } from "../../src/server/confirmation-token.js";
import { tokenFromText } from "../../src/guard/token-text.js";
import { createMcpServer } from "../../src/assembly/create-server.js";
import { CurrencyBook } from "../../src/server/currency-book.js";
import type { ServerContext } from "../../src/server/server-context.js";
import { afterAll, beforeAll } from "vitest";
import { control } from "./control-plane.js";
import { tempDir } from "./temp-dirs.js";
import { TestClock } from "./test-clock.js";

/** The emulator in-process, quiet, in memory. */
export function startTestEmulator(): Promise<RunningEmulator> {
  return startEmulator({ dataDir: null, port: 0, log: () => {}, processingDelayMs: 20, tickMs: 10 });
}

export interface HarnessOptions {
  operator?: string;
  policy?: z.input<typeof Policy>;
  /** Answers the server's elicitation requests; the client declares form elicitation only when given. */
  elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
  clock?: TestClock;
  /** Where the server opens a confirmation page's person link (their browser); none: no page. */
  opener?: PersonOpener;
  /** How often a call waiting for the person's decision on a page reads the store. */
  decisionPollMs?: number;
  tokenSecret?: Buffer;
  tokenTtlMs?: number;
  auditPath?: string;
  /** The service's address when not the emulator's own (a proxy in front of it). */
  baseUrl?: string;
  /** The client's per-attempt timeout (a lost answer is looked up after it). */
  timeoutMs?: number;
  /** How long a lost answer is looked up in the background, and the first pause. */
  lookupHorizonMs?: number;
  lookupFirstDelayMs?: number;
  /** How often the writes a stopped process left unanswered are looked up. */
  lookupSweepMs?: number;
  /** The guard's store when not a fresh file store at auditPath (a replica's PostgreSQL store). */
  store?: GuardStore;
}

export interface Harness {
  client: Client;
  ctx: ServerContext;
  clock: TestClock;
  auditPath: string;
  close(): Promise<void>;
}

export interface TestContext {
  ctx: ServerContext;
  clock: TestClock;
  auditPath: string;
}

/** The server's context on the emulator, with a hand-moved clock and a fresh audit log. */
export function testContext(emulator: RunningEmulator, options: HarnessOptions = {}): TestContext {
  const clock = options.clock ?? new TestClock();
  const serverOperator = options.operator ?? emulator.operators[0] ?? "treasury-bot";
  const auditPath = options.auditPath ?? join(tempDir("custody-mcp-test-"), "audit.jsonl");
  const policy = options.policy === undefined ? DEFAULT_POLICY : Policy.parse(options.policy);
  const store = options.store ?? new FileGuardStore(auditPath, clock.now);
  const tokens = new ConfirmationTokens({ secret: options.tokenSecret });
  // As the server builds it: one client, road and currency book per operator a person's role acts as.
  const pages = new ConfirmPages(options.opener ?? null, options.decisionPollMs);
  const byOperator = new Map<string, ServerContext>();
  const contextOf = (operator: string): ServerContext => {
    const known = byOperator.get(operator);
    if (known !== undefined) return known;
    const client = new CustodyClient({
      baseUrl: options.baseUrl ?? emulator.baseUrl,
      operator,
      retry: { retries: 1, baseDelayMs: 10 },
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    const road = new WriteRoad({
      client,
      operator,
      policy: () => policy,
      store,
      surface: "mcp",
      ...(options.tokenTtlMs === undefined ? {} : { intentTtlMs: options.tokenTtlMs }),
      ...(options.lookupHorizonMs === undefined ? {} : { lookupHorizonMs: options.lookupHorizonMs }),
      ...(options.lookupFirstDelayMs === undefined ? {} : { lookupFirstDelayMs: options.lookupFirstDelayMs }),
      ...(options.lookupSweepMs === undefined ? {} : { lookupSweepMs: options.lookupSweepMs }),
    });
    const ctx: ServerContext = {
      client,
      operator,
      policy,
      store,
      road,
      tokens,
      currencies: new CurrencyBook(client),
      now: clock.now,
      embedded: true,
      pages,
      forPerson: (person) => contextOf(grantOperator(grantFor(policy, person), serverOperator)),
    };
    byOperator.set(operator, ctx);
    return ctx;
  };
  const ctx = contextOf(serverOperator);
  return { ctx, clock, auditPath };
}

/** A client declaring form elicitation when `elicit` is given, answering with it. */
export function testClient(elicit?: HarnessOptions["elicit"]): Client {
  const client = new Client({ name: "harness", version: "0" }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler("elicitation/create", (request) => elicit(request.params.message));
  return client;
}

/** Another MCP session (its own server instance and client, as a second connection to one server process) over a context. */
export function connectSession(
  ctx: ServerContext,
  elicit?: HarnessOptions["elicit"],
  person: Person | null = null,
): Promise<{ client: Client; close(): Promise<void> }> {
  return connectClient(ctx, testClient(elicit), person);
}

/** A given client on a session of its own (its own server instance) over a context. */
export async function connectClient(ctx: ServerContext, mcpClient: Client, person: Person | null = null): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createMcpServer(ctx, { person });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await mcpClient.connect(clientTransport);
  return {
    client: mcpClient,
    close: async () => {
      await mcpClient.close();
      await server.close();
    },
  };
}

/** A real MCP client connected in memory to a server on the emulator. */
export async function connectHarness(emulator: RunningEmulator, options: HarnessOptions = {}): Promise<Harness> {
  const { ctx, clock, auditPath } = testContext(emulator, options);
  const session = await connectSession(ctx, options.elicit);
  return { client: session.client, ctx, clock, auditPath, close: session.close };
}

/** The structured content of a tool call, with the text, the error flag and the confirmation token a dry run's text carries. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[]).map((item) => item.text ?? "").join("\n");
  return {
    structured: (result.structuredContent ?? {}) as Record<string, unknown> & { status?: string; error?: string },
    text,
    isError: result.isError === true,
    token: tokenFromText(text),
  };
}

/**
 * For a file's tests: an emulator reset to the demo workspace and a harness on it, started before
 * the tests and closed after them. Read its fields inside the tests.
 */
export function demoHarness(options: HarnessOptions = {}): { emulator: RunningEmulator; harness: Harness } {
  const demo = {} as { emulator: RunningEmulator; harness: Harness };
  beforeAll(async () => {
    demo.emulator = await startTestEmulator();
    await control(demo.emulator, "POST", "/reset", { seed: "demo" });
    demo.harness = await connectHarness(demo.emulator, options);
  });
  afterAll(async () => {
    await demo.harness.close();
    await demo.emulator.close();
  });
  return demo;
}
