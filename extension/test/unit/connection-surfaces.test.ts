import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import type { CustodyMcpProvider } from "../../src/mcp/mcp-server-provider.js";
import { fake, type McpStdioServerDefinition } from "./support/fake-vscode.js";
import { startHarness, waitFor, type Harness } from "./support/extension-harness.js";

describe("connection, status bar and MCP provider", () => {
  let harness: Harness;
  afterEach(async () => {
    await harness.close();
  });

  it("shows the operator, the connection and the number of transactions pending approval", async () => {
    harness = await startHarness();
    const pending = (await harness.client.searchTransactions({ status: "PENDING_APPROVAL", page: 1, page_size: 1 })).page_info.count;
    expect(pending).toBeGreaterThan(0);
    const item = fake.statusBarItems[0];
    await waitFor(() => item?.text === `$(shield) staking-bot · ${pending} pending`, `the status bar to show ${pending} pending (it shows ${item?.text})`);
    await harness.run("custody.disconnect");
    expect(item?.text).toBe("$(debug-disconnect) Custody: not connected");
  });

  it("refuses an operator the module does not know, and says so", async () => {
    harness = await startHarness();
    fake.script({ kind: "input", text: harness.baseUrl }, { kind: "input", text: "nobody-bot" });
    await harness.run("custody.connect");
    expect(fake.contexts.get("custody.connected")).toBe(false);
    expect(fake.contexts.get("custody.connectionFailed")).toBe(true);
    const error = fake.messages.at(-1);
    expect(error?.level).toBe("error");
    expect(error?.message).toContain("nobody-bot");
    expect(fake.statusBarItems[0]?.text).toBe("$(error) Custody: nobody-bot not connected");
    expect(fake.settings.get("custody.operator")).toBe("nobody-bot");
  });

  it("checks health and reports the module and API versions", async () => {
    harness = await startHarness();
    await harness.run("custody.checkHealth");
    expect(fake.messages.at(-1)?.message).toContain("module 1.19.2, API 1.30.5");
  });

  it("provides the bundled MCP server with the window's connection, run by VS Code's runtime as Node", async () => {
    harness = await startHarness({ settings: { "custody.policyFile": "/etc/custody/policy.json" } });
    const provider = fake.mcpProviders.get("custody.mcp") as CustodyMcpProvider;
    expect(provider.provideMcpServerDefinitions()).toEqual([]);
    mkdirSync(join(harness.storage, "dist", "mcp"), { recursive: true });
    writeFileSync(join(harness.storage, "dist", "mcp", "custody-mcp.js"), "");
    let changes = 0;
    provider.onDidChangeMcpServerDefinitions(() => (changes += 1));
    const [definition] = provider.provideMcpServerDefinitions() as unknown as McpStdioServerDefinition[];
    expect(definition?.command).toBe(process.execPath);
    expect(definition?.args).toEqual([join(harness.storage, "dist", "mcp", "custody-mcp.js")]);
    expect(definition?.env).toEqual({
      ELECTRON_RUN_AS_NODE: "1",
      CUSTODY_BASE_URL: harness.baseUrl,
      CUSTODY_OPERATOR: "staking-bot",
      CUSTODY_POLICY: "/etc/custody/policy.json",
    });
    await harness.run("custody.disconnect");
    expect(changes).toBeGreaterThan(0);
  });
});
