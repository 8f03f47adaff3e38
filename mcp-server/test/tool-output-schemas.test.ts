import type { RunningEmulator } from "@custody/emulator";
import type { Client, Tool } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { control } from "./harness/control-plane.js";
import { connectHarness, startTestEmulator, type Harness } from "./harness/mcp-harness.js";
import { toolTour } from "./harness/tool-tour.js";

let emulator: RunningEmulator;
const harnesses = new Map<string, Harness>();

beforeAll(async () => {
  emulator = await startTestEmulator();
  await control(emulator, "POST", "/reset", { seed: "demo" });
});
afterAll(async () => {
  for (const harness of harnesses.values()) await harness.close();
  await emulator.close();
});

async function clientOf(operator: string): Promise<Client> {
  let harness = harnesses.get(operator);
  if (!harness) {
    harness = await connectHarness(emulator, { operator });
    harnesses.set(operator, harness);
  }
  return harness.client;
}

/** Every JSON type a schema node admits, walked through its properties, items and branches: none may be left to accept anything. */
function untypedPaths(schema: unknown, path: string): string[] {
  if (schema === null || typeof schema !== "object") return [path];
  const node = schema as Record<string, unknown>;
  const own = "type" in node || "anyOf" in node || "enum" in node || "const" in node ? [] : [path];
  const properties = Object.entries((node.properties ?? {}) as Record<string, unknown>).flatMap(([name, child]) => untypedPaths(child, `${path}.${name}`));
  const items = node.items === undefined ? [] : untypedPaths(node.items, `${path}[]`);
  const branches = Array.isArray(node.anyOf) ? node.anyOf.flatMap((branch, index) => untypedPaths(branch, `${path}|${index}`)) : [];
  const values =
    node.additionalProperties !== undefined && typeof node.additionalProperties === "object" ? untypedPaths(node.additionalProperties, `${path}{}`) : [];
  return [...own, ...properties, ...items, ...branches, ...values];
}

describe("output schemas", () => {
  it("type every field of every tool's output schema, in JSON Schema 2020-12", async () => {
    const tools = (await (await clientOf("treasury-bot")).listTools()).tools;
    expect(tools).toHaveLength(ALL_TOOLS.length);
    for (const tool of tools) {
      expect(tool.outputSchema?.$schema, tool.name).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(tool.inputSchema.$schema, tool.name).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(untypedPaths(tool.outputSchema, tool.name), tool.name).toEqual([]);
    }
    const write = tools.find((tool) => tool.name === "create_transaction") as Tool;
    expect(Object.keys(write.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["status", "reference", "account", "amounts", "fee", "checks", "transaction", "expires_at"]),
    );
  });

  it("validate what every tool answers: each read tool, and a dry run of each write", async () => {
    const tour = await toolTour(emulator);
    const validator = new AjvJsonSchemaValidator();
    const listed = new Map((await (await clientOf("treasury-bot")).listTools()).tools.map((tool) => [tool.name, tool]));
    const answered: string[] = [];
    for (const step of tour) {
      const client = await clientOf(step.operator);
      const result = await client.callTool({ name: step.tool, arguments: step.args });
      const schema = listed.get(step.tool)?.outputSchema;
      expect(schema, step.tool).toBeDefined();
      expect(result.structuredContent, step.tool).toBeDefined();
      const verdict = validator.getValidator(schema as Parameters<AjvJsonSchemaValidator["getValidator"]>[0])(result.structuredContent);
      expect(verdict.errorMessage, `${step.tool}: ${JSON.stringify(result.structuredContent).slice(0, 400)}`).toBeUndefined();
      answered.push(step.tool);
    }
    expect(answered.sort()).toEqual(ALL_TOOLS.map((tool) => tool.name).sort());
  });
});
