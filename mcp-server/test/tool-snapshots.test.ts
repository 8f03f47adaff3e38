import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunningEmulator } from "@custody/emulator";
import type { Tool } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHarness, startTestEmulator, type Harness } from "./harness/mcp-harness.js";

// One JSON file per tool: what a client sees of it. A change to a tool's name, description,
// schemas, hints or icon fails here until the snapshot is rewritten on purpose (UPDATE_SNAPSHOTS=1).
const SNAPSHOT_DIR = fileURLToPath(new URL("./snapshots/", import.meta.url));
const UPDATE = process.env.UPDATE_SNAPSHOTS === "1";

function snapshotOf(tool: Tool): string {
  const { name, title, description, inputSchema, outputSchema, annotations, icons } = tool;
  return `${JSON.stringify({ name, title, description, inputSchema, outputSchema, annotations, icons }, null, 2)}\n`;
}

let emulator: RunningEmulator;
let harness: Harness;
let tools: Tool[];

beforeAll(async () => {
  emulator = await startTestEmulator();
  harness = await connectHarness(emulator);
  tools = (await harness.client.listTools()).tools;
  if (UPDATE) {
    mkdirSync(SNAPSHOT_DIR, { recursive: true });
    for (const tool of tools) writeFileSync(join(SNAPSHOT_DIR, `${tool.name}.json`), snapshotOf(tool));
  }
});
afterAll(async () => {
  await harness.close();
  await emulator.close();
});

describe("tool snapshots", () => {
  it("has a snapshot for every tool and none for a tool that is gone", () => {
    const files = existsSync(SNAPSHOT_DIR) ? readdirSync(SNAPSHOT_DIR).filter((file) => file.endsWith(".json")) : [];
    expect(files.sort()).toEqual(tools.map((tool) => `${tool.name}.json`).sort());
  });

  it("matches every tool's snapshot (UPDATE_SNAPSHOTS=1 rewrites them)", () => {
    for (const tool of tools) {
      const path = join(SNAPSHOT_DIR, `${tool.name}.json`);
      const stored = existsSync(path) ? readFileSync(path, "utf8") : "(no snapshot)";
      expect(snapshotOf(tool), `${tool.name}: the tool changed; review and run with UPDATE_SNAPSHOTS=1`).toBe(stored);
    }
  });
});
