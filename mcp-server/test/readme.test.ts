import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Policy } from "@custody/shared";
import { describe, expect, it } from "vitest";
import { optionsTable } from "../src/config/options.js";
import { USAGE } from "../src/config/server-config.js";
import type { AnyTool } from "../src/tools/tool-definition.js";
import { ALL_TOOLS } from "../src/tools/inventory.js";

const PACKAGE_README = fileURLToPath(new URL("../README.md", import.meta.url));
const ROOT_README = fileURLToPath(new URL("../../README.md", import.meta.url));
const BEGIN = "<!-- tool-list:begin (generated from src/tools/inventory.ts by test/readme.test.ts) -->";
const END = "<!-- tool-list:end -->";
const REWRITE = "UPDATE_TOOL_LIST=1 npx vitest run mcp-server/test/readme.test.ts";
const OPTIONS_BEGIN = "<!-- options:begin (generated from mcp-server/src/config/options.ts by mcp-server/test/readme.test.ts) -->";
const OPTIONS_END = "<!-- options:end -->";

function kind(tool: AnyTool): string {
  const hints = tool.annotations;
  if (hints.readOnlyHint) return "read-only";
  if (hints.destructiveHint) return "guarded write";
  return hints.idempotentHint ? "moves no funds, idempotent" : "moves no funds";
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The README's tool table, from the inventory: one row per tool, in tools/list order. */
function toolTable(tools: readonly AnyTool[]): string {
  const rows = tools.map((tool) => `| \`${tool.name}\` | ${cell(tool.title)} | ${tool.toolset} | ${kind(tool)} | ${cell(tool.description)} |`);
  return [
    `${tools.length} tools.`,
    "",
    "| Tool | Title | Toolset | Kind | Description (as the model reads it) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

describe("the READMEs", () => {
  it("mcp-server/README.md lists every tool, as generated from the inventory", () => {
    const text = readFileSync(PACKAGE_README, "utf8");
    const begin = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(begin, `mcp-server/README.md has no line ${BEGIN}`).toBeGreaterThanOrEqual(0);
    expect(end, `mcp-server/README.md has no line ${END}`).toBeGreaterThan(begin);
    const current = text.slice(begin + BEGIN.length, end).trim();
    const expected = toolTable(ALL_TOOLS);
    if (process.env.UPDATE_TOOL_LIST === "1" && current !== expected) {
      writeFileSync(PACKAGE_README, `${text.slice(0, begin + BEGIN.length)}\n${expected}\n${text.slice(end)}`);
      return;
    }
    expect(current, `the tool list is out of date: run ${REWRITE}`).toBe(expected);
    for (const tool of ALL_TOOLS) expect(current).toContain(`| \`${tool.name}\` |`);
  });

  it("the root README's options table is the one generated from the options' declarations", () => {
    const root = readFileSync(ROOT_README, "utf8");
    const begin = root.indexOf(OPTIONS_BEGIN);
    const end = root.indexOf(OPTIONS_END);
    expect(begin, `README.md has no line ${OPTIONS_BEGIN}`).toBeGreaterThanOrEqual(0);
    expect(end, `README.md has no line ${OPTIONS_END}`).toBeGreaterThan(begin);
    const current = root.slice(begin + OPTIONS_BEGIN.length, end).trim();
    const expected = optionsTable();
    if (process.env.UPDATE_TOOL_LIST === "1" && current !== expected) {
      writeFileSync(ROOT_README, `${root.slice(0, begin + OPTIONS_BEGIN.length)}\n${expected}\n${root.slice(end)}`);
      return;
    }
    expect(current, `the options table is out of date: run ${REWRITE}`).toBe(expected);
  });

  it("the root README's MCP server section names every flag and environment variable of --help", () => {
    const root = readFileSync(ROOT_README, "utf8");
    const section = root.slice(root.indexOf("## MCP server"));
    expect(section.length).toBeLessThan(root.length);
    const flags = [...new Set(USAGE.match(/--[a-z][a-z-]+/g) ?? [])];
    const variables = [...new Set(USAGE.match(/CUSTODY_[A-Z_]+/g) ?? [])];
    expect(flags.length).toBeGreaterThan(5);
    expect(variables.length).toBeGreaterThan(5);
    for (const name of [...flags, ...variables, "verify-audit"]) expect(section, `README.md, section MCP server: ${name}`).toContain(name);
  });

  it("the root README's policy example is a valid policy file", () => {
    const root = readFileSync(ROOT_README, "utf8");
    const marker = root.indexOf("<!-- policy-example");
    expect(marker).toBeGreaterThanOrEqual(0);
    const block = /```json\n([\s\S]*?)\n```/.exec(root.slice(marker));
    expect(block?.[1]).toBeDefined();
    const policy = Policy.parse(JSON.parse(block?.[1] ?? ""));
    expect(Object.keys(policy.limits)).toEqual(["solana_testnet", "polkadot"]);
  });

  it("shows a team policy with roles that the schema accepts", () => {
    const root = readFileSync(ROOT_README, "utf8");
    const marker = root.indexOf("<!-- team-policy-example");
    expect(marker).toBeGreaterThanOrEqual(0);
    const block = /```json\n([\s\S]*?)\n```/.exec(root.slice(marker));
    const policy = Policy.parse(JSON.parse(block?.[1] ?? ""));
    expect(policy.roles?.map((role) => role.name)).toEqual(["treasury", "staking", "viewers"]);
    expect(Object.keys(policy.team_limits)).toEqual(["solana_testnet"]);
  });
});
