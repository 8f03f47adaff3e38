import { performance } from "node:perf_hooks";
import type { RunningEmulator } from "@custody/emulator";
import type { Tool } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolTour } from "../../mcp-server/test/harness/tool-tour.js";
import { callTool, openMcpSession, startQuietEmulator, transactionCount, type McpSession, type ToolAnswer } from "./support/mcp-workspace.js";
import { recordFigures } from "./support/reliability-figures.js";
import { SCALE, SOAK, TEST_TIMEOUT_MS } from "./support/reliability-scale.js";

// Every string field of every tool, through a real MCP client, at its limit, just over it and far
// over it (up to millions of characters): over the limit is refused naming the field and the
// limit, before anything reads the text (a 3-million-digit amount once held the event loop for
// 15 s); at the limit the field is not refused for its length. Times are recorded, not asserted.

/** Lengths far over any limit: the 3 and 9 million at soak size. */
const HUGE = SOAK ? [100_000, 3_000_000, 9_000_000] : [100_000, 1_000_000];

/** The fields the tools' schemas must bound, and the one bounded by its handler. */
const HANDLER_BOUNDED: Record<string, number> = {};

let emulator: RunningEmulator;
const sessions = new Map<string, McpSession>();
let tour: Map<string, { args: Record<string, unknown>; operator: string }>;
let tools: Tool[];
let transactionsBefore = 0;

const figures = {
  fields: 0,
  calls: 0,
  refusedNamingFieldAndLimit: 0,
  atLimitNotRefusedForLength: 0,
  largestInput: 0,
  maxRefusalMs: 0,
  maxRefusal: "",
  maxAtLimitMs: 0,
  maxAtLimit: "",
  fieldsBoundedByHandler: [] as string[],
};

/** The maxLength of a property (a string, or a number-or-string union), if it has one. */
function maxLengthOf(property: Record<string, unknown>): number | undefined {
  if (typeof property.maxLength === "number") return property.maxLength;
  const options = (property.anyOf ?? []) as Record<string, unknown>[];
  return options.map((option) => option.maxLength).find((max): max is number => typeof max === "number");
}

/** A free-text string field (an enum is bounded by its values). */
function isString(property: Record<string, unknown>): boolean {
  const free = (schema: Record<string, unknown>) => schema.type === "string" && schema.enum === undefined;
  return free(property) || ((property.anyOf ?? []) as Record<string, unknown>[]).some(free);
}

function messageOf(answer: ToolAnswer): string {
  return [answer.protocolError ?? "", answer.text, typeof answer.structured.error === "string" ? answer.structured.error : ""].join("\n");
}

async function timedCall(tool: string, field: string, length: number): Promise<{ answer: ToolAnswer; ms: number }> {
  const base = tour.get(tool) ?? { args: {}, operator: "treasury-bot" };
  const session = sessions.get(base.operator) as McpSession;
  const started = performance.now();
  const answer = await callTool(session.client, tool, { ...base.args, [field]: "9".repeat(length) });
  const ms = performance.now() - started;
  figures.calls += 1;
  figures.largestInput = Math.max(figures.largestInput, length);
  return { answer, ms };
}

beforeAll(async () => {
  emulator = await startQuietEmulator();
  for (const operator of ["treasury-bot", "staking-bot"])
    sessions.set(operator, await openMcpSession(emulator, { operator, retry: { retries: 1, baseDelayMs: 5 } }));
  tour = new Map((await toolTour(emulator)).map((step) => [step.tool, { args: step.args, operator: step.operator }]));
  tools = (await (sessions.get("treasury-bot") as McpSession).client.listTools()).tools;
  transactionsBefore = await transactionCount(emulator);
});

afterAll(async () => {
  for (const session of sessions.values()) await session.close();
  await emulator?.close();
});

describe("input sizes at every tool's string fields", () => {
  it("every string field of every tool states its limit in tools/list, but the confirmation token, which its handler bounds", () => {
    const unbounded = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {})
        .filter(([, property]) => isString(property as Record<string, unknown>) && maxLengthOf(property as Record<string, unknown>) === undefined)
        .map(([field]) => field),
    );
    expect([...new Set(unbounded)]).toEqual(Object.keys(HANDLER_BOUNDED));
  });

  it(
    "refuses each field over its limit (limit + 1, twice it, " +
      `${HUGE.map((size) => size.toLocaleString("en")).join(", ")} characters) naming the field and the ` +
      "limit; takes it at the limit",
    async () => {
      for (const tool of tools) {
        for (const [field, property] of Object.entries(tool.inputSchema.properties ?? {})) {
          if (!isString(property as Record<string, unknown>)) continue;
          const max = maxLengthOf(property as Record<string, unknown>) ?? HANDLER_BOUNDED[field];
          if (max === undefined) continue;
          figures.fields += 1;
          if (max !== HANDLER_BOUNDED[field]) {
            const { answer, ms } = await timedCall(tool.name, field, max);
            expect(messageOf(answer), `${tool.name}.${field} at its limit`).not.toContain(`${field}: at most ${max} characters`);
            figures.atLimitNotRefusedForLength += 1;
            if (ms > figures.maxAtLimitMs) Object.assign(figures, { maxAtLimitMs: Math.round(ms), maxAtLimit: `${tool.name}.${field} (${max})` });
          } else figures.fieldsBoundedByHandler.push(`${tool.name}.${field}`);
          for (const length of [max + 1, 2 * max, ...HUGE]) {
            const { answer, ms } = await timedCall(tool.name, field, length);
            expect(answer.isError, `${tool.name}.${field} of ${length}`).toBe(true);
            expect(messageOf(answer), `${tool.name}.${field} of ${length}`).toContain(`${field}: at most ${max} characters, got ${length}`);
            figures.refusedNamingFieldAndLimit += 1;
            if (ms > figures.maxRefusalMs) Object.assign(figures, { maxRefusalMs: Math.round(ms), maxRefusal: `${tool.name}.${field} (${length})` });
          }
        }
      }
      expect(figures.refusedNamingFieldAndLimit).toBeGreaterThan(tools.length);
    },
    TEST_TIMEOUT_MS,
  );

  it("wrote nothing", async () => {
    expect(await transactionCount(emulator)).toBe(transactionsBefore);
    recordFigures("input-sizes", { tools: tools.length, scale: SCALE.mode, ...figures });
  });
});
