import type { RunningEmulator } from "@custody/emulator";
import type { Client } from "@modelcontextprotocol/client";
import { expect, vi } from "vitest";
import type { RunningHttpServer } from "../../src/transport/http-server.js";
import { control } from "./control-plane.js";
import { transactionsWithLabel } from "./demo-workspace.js";
import { call } from "./mcp-harness.js";

/**
 * A write confirmed with its POST held up by the workspace, then a shutdown while it is under way:
 * `refused` (a new request sent then) must be answered 503, and the write must finish, be answered
 * and sent once, with nothing left unfinished.
 */
export async function expectWriteToOutliveShutdown(
  emulator: RunningEmulator,
  server: RunningHttpServer,
  client: Client,
  args: Record<string, unknown>,
  refused: () => Promise<{ status: number; body: string }>,
): Promise<void> {
  const dry = await call(client, "create_transaction", args);
  await control(emulator, "PUT", "/faults", { latency_ms: 1500, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
  try {
    const confirming = call(client, "create_transaction", { ...args, confirmation_token: dry.token });
    await vi.waitFor(() => expect(server.pending).toBe(1), { timeout: 5_000 });
    const stopped = server.shutdown(10_000);
    const refusal = await refused();
    expect(refusal.status).toBe(503);
    expect(refusal.body).toContain("shutting down");
    expect((await confirming).structured.status).toBe("submitted");
    expect(await stopped).toBe(0);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
  } finally {
    await control(emulator, "DELETE", "/faults");
  }
}
