import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import type { CustodyMcpProvider } from "../../src/mcp/mcp-server-provider.js";
import { fake } from "./support/fake-vscode.js";
import { startHarness, type Harness } from "./support/extension-harness.js";

/** The harness with a (stand-in) bundled server in the extension's dist/mcp/, as the .vsix carries it. */
async function withBundledServer(): Promise<Harness> {
  const harness = await startHarness({ settings: { "custody.policyFile": "/etc/custody/policy.json" } });
  mkdirSync(join(harness.storage, "dist", "mcp"), { recursive: true });
  writeFileSync(join(harness.storage, "dist", "mcp", "custody-mcp.js"), "");
  return harness;
}

describe("the MCP server definition and Restricted Mode", () => {
  let harness: Harness;
  afterEach(async () => {
    await harness.close();
  });

  it("opens the definition it provides as mcp.json: the bundled server, VS Code's runtime, the window's connection", async () => {
    harness = await withBundledServer();
    await harness.run("custody.showMcpServerDefinition");
    const shown = JSON.parse(fake.documents.at(-1)?.content ?? "{}") as { servers: Record<string, unknown> };
    expect(fake.documents.at(-1)?.language).toBe("json");
    expect(shown.servers["custody-workspace"]).toEqual({
      type: "stdio",
      command: process.execPath,
      args: [join(harness.storage, "dist", "mcp", "custody-mcp.js")],
      env: {
        ELECTRON_RUN_AS_NODE: "1",
        CUSTODY_BASE_URL: harness.baseUrl,
        CUSTODY_OPERATOR: "staking-bot",
        CUSTODY_POLICY: "/etc/custody/policy.json",
        CUSTODY_AUDIT_LOG: join(harness.storage, "audit", "custody-vscode-audit.jsonl"),
      },
    });
  });

  it("says so when the package carries no MCP server", async () => {
    harness = await startHarness();
    await harness.run("custody.showMcpServerDefinition");
    expect(fake.documents).toEqual([]);
    expect(fake.messages.at(-1)?.message).toBe("Custody: this package of the extension carries no MCP server.");
  });

  it("in Restricted Mode refuses writes before any question, reads still, and offers no MCP server until the workspace is trusted", async () => {
    harness = await withBundledServer();
    fake.trusted = false;
    const provider = fake.mcpProviders.get("custody.mcp") as CustodyMcpProvider;
    let changes = 0;
    provider.onDidChangeMcpServerDefinitions(() => (changes += 1));
    const before = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count;

    for (const command of [
      "custody.createTransaction",
      "custody.solana.createStake",
      "custody.approveTransaction",
      "custody.syncAccount",
      "custody.registerOperator",
    ]) {
      await harness.run(command);
      const refused = fake.messages.at(-1);
      expect(refused?.level, command).toBe("error");
      expect(refused?.message, command).toContain("refused: this window is in Restricted Mode, where Custody only reads");
    }
    expect(fake.picks).toEqual([]);
    expect(fake.inputs).toEqual([]);
    expect((await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count).toBe(before);
    expect(fake.output.join("\n")).toContain("create_transaction: this window is in Restricted Mode");

    // Reads go on: the views and Check Health.
    expect((await harness.provider("accounts").getChildren()).length).toBeGreaterThan(0);
    await harness.run("custody.checkHealth");
    expect(fake.messages.at(-1)?.message).toContain("module 1.19.2");

    expect(provider.provideMcpServerDefinitions()).toEqual([]);
    await harness.run("custody.showMcpServerDefinition");
    expect(fake.messages.at(-1)?.message).toContain("no MCP server is offered: this window is in Restricted Mode");
    expect(fake.documents).toEqual([]);

    fake.trusted = true;
    fake.trustGranted.fire();
    expect(changes).toBe(1);
    expect(provider.provideMcpServerDefinitions()).toHaveLength(1);
  });
});
