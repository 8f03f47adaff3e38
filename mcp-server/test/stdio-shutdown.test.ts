import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildBundle } from "./harness/built-bundle.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { startTestEmulator } from "./harness/mcp-harness.js";
import { RawStdioServer, type RpcMessage } from "./harness/raw-stdio-server.js";
import { tempDir } from "./harness/temp-dirs.js";
import { tokenFromText } from "../src/guard/token-text.js";

/** How long the workspace holds the confirmed POST: the write is surely under way when the test stops the server. */
const POST_LATENCY_MS = 2_500;

let emulator: RunningEmulator;
let bundle: string;
let recipient: string;
const started: RawStdioServer[] = [];

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
}, 60_000);
afterAll(async () => {
  await emulator.close();
});
afterEach(() => {
  // A failed test must not leave its server behind.
  for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
});
beforeEach(async () => {
  await resetWorkspace(emulator);
  recipient = (await accountNamed(emulator, DEMO.solCold)).address;
});

function startServer(): { server: RawStdioServer; auditLog: string } {
  const auditLog = join(tempDir("custody-mcp-audit-"), "audit.jsonl");
  const server = new RawStdioServer(bundle, { CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: DEMO.treasuryBot, CUSTODY_AUDIT_LOG: auditLog });
  started.push(server);
  return { server, auditLog };
}

/** The structured answer, with the confirmation token of a dry run's text. */
const structured = (message: RpcMessage) => {
  const result = message.result as { structuredContent?: Record<string, unknown>; content?: { text?: string }[] } | undefined;
  const text = (result?.content ?? []).map((item) => item.text ?? "").join("\n");
  return { ...(result?.structuredContent ?? {}), confirmation_token: tokenFromText(text) } as {
    status?: string;
    reference?: string;
    confirmation_token?: string;
    error?: string;
  };
};
const auditEvents = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { event: string }).event);

/** A dry run, then the confirmation written with the POST held up by the workspace; returns the dry run's reference. */
async function confirmSlowWrite(server: RawStdioServer, confirmId: number): Promise<string> {
  const args = { account: DEMO.solTreasury, recipient, amount: "0.1", unit: "SOL" };
  server.callTool(1, "create_transaction", args);
  const dry = structured(await server.answer(1));
  expect(dry.status).toBe("dry_run");
  await control(emulator, "PUT", "/faults", { latency_ms: POST_LATENCY_MS, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
  server.callTool(confirmId, "create_transaction", { ...args, confirmation_token: dry.confirmation_token });
  return dry.reference as string;
}

describe("graceful shutdown over stdio (the bundle)", () => {
  it("stdin closed right after a write's confirmation: the write finishes, is answered and audited, then the process exits 0", async () => {
    const { server, auditLog } = startServer();
    await server.initialize();
    const reference = await confirmSlowWrite(server, 2);
    server.child.stdin.end();
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const answer = server.messages.find((message) => message.id === 2);
    expect(answer, server.stderr).toBeDefined();
    expect(structured(answer as RpcMessage).status).toBe("submitted");
    expect(server.stderr).toContain("the client closed stdin: stopping, taking no new request; finishing 1 request(s) under way");
    expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
    expect(auditEvents(auditLog)).toEqual(["sealed", "dry_run", "confirmed", "reserved", "submitted"]);
  });

  it("SIGTERM during a write: no new request is taken, the write is answered, then the process exits 143", async () => {
    const { server, auditLog } = startServer();
    await server.initialize();
    const reference = await confirmSlowWrite(server, 2);
    // Under way: reserved, its POST held up by the workspace.
    await server.until("the write's reservation", () => (existsSync(auditLog) && auditEvents(auditLog).includes("reserved") ? true : undefined));
    server.child.kill("SIGTERM");
    await server.until("the stopping line", () => (server.stderr.includes("SIGTERM: stopping") ? true : undefined));
    server.send({ id: 3, method: "ping" });
    const refused = await server.answer(3);
    expect(refused.error?.message).toMatch(/shutting down: this call was not run/);
    const exit = await server.exited;
    expect(exit.code).toBe(143);
    expect(structured((await server.answer(2)) as RpcMessage).status).toBe("submitted");
    expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
  });

  it("stdin closed while the server waits for the person's confirmation: nothing is sent, the call is answered at once", async () => {
    const { server, auditLog } = startServer();
    await server.initialize({ elicitation: { form: {} } });
    const args = { account: DEMO.solTreasury, recipient, amount: "0.1", unit: "SOL" };
    server.callTool(1, "create_transaction", args);
    const dry = structured(await server.answer(1));
    server.callTool(2, "create_transaction", { ...args, confirmation_token: dry.confirmation_token });
    await server.until("the confirmation form", () => server.messages.find((message) => message.method === "elicitation/create"));
    const closedAt = Date.now();
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - closedAt).toBeLessThan(10_000);
    // The SDK asked the question (elicitation/create) and answers the failed form itself: the tool is not called again, nothing is used up or sent.
    const answer = (await server.answer(2)) as { result?: { isError?: boolean; content?: { text?: string }[] } };
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.content?.[0]?.text).toContain("no answer can come");
    expect(await transactionsWithLabel(emulator, dry.reference as string)).toEqual([]);
    expect(auditEvents(auditLog)).toEqual(["sealed", "dry_run"]);
  });
});
