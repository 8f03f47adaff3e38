import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { buildBundle } from "./harness/built-bundle.js";
import { startHttpBundle, type HttpBundleServer } from "./harness/http-bundle-server.js";
import { INSPECTOR_PACKAGE, INSPECTOR_VERSION, inspectorTools } from "./harness/inspector-tools.js";
import type { Node22Cli } from "./harness/node22-cli.js";
import { childHome } from "./harness/temp-dirs.js";

/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, Node 22, installed by npm into
 * the git-ignored mcp-server/.tools/ on first run) against the built bundle over stdio, on the
 * embedded demo workspace (and over Streamable HTTP with the bearer token): it lists tools,
 * resources and prompts, calls a read tool, and its --strict schema portability check (untyped
 * schemas, type lists, remote $refs, boolean schemas) reports nothing.
 */
let ready: { inspector: Node22Cli; bundle: string };
beforeAll(async () => void (ready = { bundle: buildBundle(), inspector: await inspectorTools() }), 180_000);

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One Inspector CLI run against the bundle over stdio: the server command first (its own arguments follow it), then the method and its options. */
function inspect(...options: string[]): Promise<InspectorRun> {
  return inspectTarget([process.execPath, ready.bundle], options);
}

function inspectTarget(target: string[], options: string[]): Promise<InspectorRun> {
  const { inspector } = ready;
  const args = [inspector.cli, "--cli", ...target, ...options];
  return new Promise((resolve) => {
    // A home of its own: the Inspector keeps a catalog there, the server its seal key and audit log.
    const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...childHome() };
    execFile(inspector.node, args, { env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
  });
}

/** The lines of a run's stderr that are the Inspector's (the server's own start with "custody-mcp:"). */
const inspectorLines = (run: InspectorRun) => run.stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("custody-mcp:"));

describe(`MCP Inspector (${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION} --cli) over stdio`, () => {
  it("lists every tool, and --strict finds no schema portability problem", async () => {
    const run = await inspect("--method", "tools/list", "--strict");
    expect(inspectorLines(run)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    const tools = (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools;
    expect(tools.map((tool) => tool.name)).toEqual(ALL_TOOLS.map((tool) => tool.name));
  });

  it("lists resources, resource templates and prompts", async () => {
    const resources = await inspect("--method", "resources/list");
    expect(resources.code, resources.stderr).toBe(0);
    expect((JSON.parse(resources.stdout) as { resources: { uri: string }[] }).resources.map((resource) => resource.uri)).toContain("custody://accounts/1");
    const templates = await inspect("--method", "resources/templates/list");
    expect(
      (JSON.parse(templates.stdout) as { resourceTemplates: { uriTemplate: string }[] }).resourceTemplates.map((template) => template.uriTemplate),
    ).toContain("custody://solana/accounts/{account_id}/stakes/{stake_uid}");
    const prompts = await inspect("--method", "prompts/list");
    expect(prompts.code, prompts.stderr).toBe(0);
    expect((JSON.parse(prompts.stdout) as { prompts: { name: string }[] }).prompts.map((prompt) => prompt.name).sort()).toEqual([
      "review_pending_approvals",
      "stake_sol",
      "unbond_dot_safely",
    ]);
  });

  it("calls a read tool with an account named by a string, its answer typed as listed", async () => {
    const run = await inspect("--method", "tools/call", "--tool-name", "get_account", "--tool-arg", "account=sol-treasury");
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { isError?: boolean; structuredContent: { account: { id: number; balance: { unit: string } } } };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.account).toMatchObject({ id: 1, balance: { unit: "SOL" } });
  });
});

describe("MCP Inspector --cli over Streamable HTTP, with the bearer token", () => {
  let server: HttpBundleServer;
  const token = randomBytes(24).toString("base64url");
  beforeAll(async () => void (server = await startHttpBundle(ready.bundle, [], { CUSTODY_MCP_TOKEN: token })), 60_000);
  afterAll(async () => void (await server?.stop()));

  it("lists every tool, and --strict finds no schema portability problem", async () => {
    const run = await inspectTarget([server.url], ["--transport", "http", "--header", `Authorization: Bearer ${token}`, "--method", "tools/list", "--strict"]);
    expect(inspectorLines(run)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { tools: unknown[] }).tools).toHaveLength(ALL_TOOLS.length);
  });
});
