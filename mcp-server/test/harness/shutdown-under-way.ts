import { existsSync, readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import type { Client } from "@modelcontextprotocol/client";
import { expect, vi } from "vitest";
import type { RunningHttpServer } from "../../src/transport/http-server.js";
import { control } from "./control-plane.js";
import { transactionsWithLabel } from "./demo-workspace.js";
import { call } from "./mcp-harness.js";

/**
 * A write confirmed with its POST held up by the workspace, then a shutdown once it is under way
 * (reserved on the server's audit log at `auditPath`): `refused` (a new request sent then) must be
 * answered 503, and the write must finish, be answered and sent once, with nothing left unfinished.
 */
export async function expectWriteToOutliveShutdown({
  emulator,
  server,
  auditPath,
  client,
  args,
  refused,
}: {
  emulator: RunningEmulator;
  server: RunningHttpServer;
  auditPath: string;
  client: Client;
  args: Record<string, unknown>;
  refused: () => Promise<{ status: number; body: string }>;
}): Promise<void> {
  const dry = await call(client, "create_transaction", args);
  await control(emulator, "PUT", "/faults", { latency_ms: 1500, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
  try {
    const confirming = call(client, "create_transaction", { ...args, confirmation_token: dry.token });
    // Under way: reserved, its POST held up by the workspace.
    await vi.waitFor(() => expect(existsSync(auditPath) && readFileSync(auditPath, "utf8").includes('"event":"reserved"')).toBe(true), {
      timeout: 15_000,
      interval: 10,
    });
    expect(server.pending).toBe(1);
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
