import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import type { CustodyMcpProvider } from "../../src/mcp/mcp-server-provider.js";
import { fake, workspace, type McpStdioServerDefinition } from "./support/fake-vscode.js";
import { startHarness, waitFor, type Harness } from "./support/extension-harness.js";

/** The status bar's tooltip as it reads, Markdown escapes removed. */
const tooltip = () => (fake.statusBarItems[0]?.tooltip as { value?: string } | undefined)?.value?.replace(/\\(.)/g, "$1") ?? "";

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
      // One audit log for both surfaces: the daily limits count the writes of both.
      CUSTODY_AUDIT_LOG: join(harness.storage, "audit", "custody-vscode-audit.jsonl"),
    });
    await harness.run("custody.disconnect");
    expect(changes).toBeGreaterThan(0);
  });
});

describe("the built-in emulator", () => {
  /** The harness disconnected from its own emulator, then connected to the built-in one as staking-bot. */
  async function onBuiltinEmulator(): Promise<Harness> {
    const harness = await startHarness();
    await harness.run("custody.disconnect");
    fake.script({ kind: "pick", label: "staking-bot" });
    await harness.run("custody.startEmulator");
    expect(fake.contexts.get("custody.connected")).toBe(true);
    return harness;
  }

  it("starts inside the extension host on the demo workspace and connects as the chosen operator", async () => {
    const harness = await onBuiltinEmulator();
    try {
      expect(fake.messages.at(-1)?.message).toContain("connected to the built-in emulator (demo workspace) as staking-bot");
      const lines = await harness.provider("accounts").getChildren();
      expect(lines.map((node) => node.treeItem().label)).toEqual(["Solana", "Polkadot", "Ethereum"]);
    } finally {
      await harness.close();
    }
  });

  it("is reachable only with its key, which the window's client and the provided MCP server (as a file) hold", async () => {
    const harness = await onBuiltinEmulator();
    try {
      mkdirSync(join(harness.storage, "dist", "mcp"), { recursive: true });
      writeFileSync(join(harness.storage, "dist", "mcp", "custody-mcp.js"), "");
      const provider = fake.mcpProviders.get("custody.mcp") as CustodyMcpProvider;
      const env = (provider.provideMcpServerDefinitions() as unknown as McpStdioServerDefinition[])[0]?.env ?? {};
      const baseUrl = env.CUSTODY_BASE_URL as string;
      expect(baseUrl).not.toBe(harness.baseUrl);
      const keyFile = env.CUSTODY_EMULATOR_KEY_FILE as string;
      expect(keyFile.startsWith(join(harness.storage, "emulator"))).toBe(true);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const key = readFileSync(keyFile, "utf8");
      expect(Object.values(env).join("\n")).not.toContain(key);
      expect(fake.output.join("\n")).not.toContain(key);
      const get = (headers: Record<string, string>) => fetch(`${baseUrl}/accounts`, { headers: { "x-vendor-api-user": "staking-bot", ...headers } });
      expect((await get({})).status).toBe(401);
      expect((await get({ "x-emulator-key": key })).status).toBe(200);
      harness.deactivate();
      await waitFor(() => !existsSync(keyFile), "the key file to be removed with the emulator");
    } finally {
      await harness.close();
    }
  });
});

describe("the connection settings, edited by hand", () => {
  it("are checked as the Connect boxes check them: a password in the base URL is refused, naming the setting and rule, and never shown", async () => {
    const harness = await startHarness();
    try {
      const withPassword = harness.baseUrl.replace("http://", "http://ops:hunter2-secret@");
      await workspace.getConfiguration("custody").update("baseUrl", withPassword);
      await waitFor(() => fake.contexts.get("custody.connectionFailed") === true, "the connection to fail");
      expect(tooltip()).toContain("custody.baseUrl (user setting): base URL: must not carry credentials (use Custody: Set or Clear the Gateway Access Token)");
      const shown = [...fake.output, ...fake.messages.map((message) => message.message), tooltip(), fake.statusBarItems[0]?.text ?? ""];
      expect(shown.filter((line) => line.includes("hunter2"))).toEqual([]);
      await workspace.getConfiguration("custody").update("baseUrl", harness.baseUrl);
      await waitFor(() => fake.contexts.get("custody.connected") === true, "the connection to come back");
      await workspace.getConfiguration("custody").update("operator", "bot with spaces");
      await waitFor(() => fake.contexts.get("custody.connectionFailed") === true, "the connection to fail");
      expect(tooltip()).toContain("custody.operator (user setting): operator: ");
    } finally {
      await harness.close();
    }
  });
});

describe("a base URL carrying a secret", () => {
  /** Everything the window shows or logs: the output channel, the notifications, the status bar. */
  const shown = () => [...fake.output, ...fake.messages.map((message) => message.message), tooltip(), fake.statusBarItems[0]?.text ?? ""];

  it("in its query is refused and never shown, at start or when the setting changes: the address is shown without it", async () => {
    const harness = await startHarness({ settings: { "custody.baseUrl": "http://127.0.0.1:9/module?access_token=hunter2-first" }, until: "failed" });
    try {
      await waitFor(() => fake.output.some((line) => line.includes("Could not connect")), "the start's failure in the output channel");
      expect(tooltip()).toContain("custody.baseUrl (user setting): base URL: must have no query or fragment");
      expect(tooltip()).toContain("http://127.0.0.1:9/module (its credentials, query and fragment not shown)");
      await workspace.getConfiguration("custody").update("baseUrl", `${harness.baseUrl}#access_token=hunter2-second`);
      await waitFor(() => fake.output.some((line) => line.includes("Settings changed")), "the change in the output channel");
      expect(fake.contexts.get("custody.connectionFailed")).toBe(true);
      // Nor is it given to an MCP server, whose definition is shown too: none is offered, and Show says why.
      mkdirSync(join(harness.storage, "dist", "mcp"), { recursive: true });
      writeFileSync(join(harness.storage, "dist", "mcp", "custody-mcp.js"), "");
      expect((fake.mcpProviders.get("custody.mcp") as CustodyMcpProvider).provideMcpServerDefinitions()).toEqual([]);
      await harness.run("custody.showMcpServerDefinition");
      expect(fake.messages.at(-1)?.message).toBe(
        "Custody: no MCP server is offered: custody.baseUrl (user setting): base URL: must have no query or fragment.",
      );
      expect(fake.documents).toEqual([]);
      expect(shown().filter((line) => line.includes("hunter2"))).toEqual([]);
      // Disconnected, the settings are what a server would be given: still none.
      await harness.run("custody.disconnect");
      expect((fake.mcpProviders.get("custody.mcp") as CustodyMcpProvider).provideMcpServerDefinitions()).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});

describe("after a failed connection", () => {
  const retries = () => fake.output.filter((line) => line.includes("Settings changed")).length;

  it("only a change of the base URL or the operator connects again, not another setting of Custody's or another extension's", async () => {
    const harness = await startHarness();
    try {
      await workspace.getConfiguration("custody").update("baseUrl", harness.baseUrl.replace("http://", "http://ops:hunter2-secret@"));
      await waitFor(() => fake.contexts.get("custody.connectionFailed") === true, "the connection to fail");
      const failed = retries();
      // The change event is handled as it fires: a retry would have logged its line by now.
      await workspace.getConfiguration("custody").update("refreshIntervalSeconds", 60);
      await workspace.getConfiguration("custody").update("policyFile", "/etc/custody/policy.json");
      await workspace.getConfiguration("editor").update("fontSize", 14);
      expect(retries()).toBe(failed);
      await workspace.getConfiguration("custody").update("baseUrl", harness.baseUrl);
      expect(retries()).toBe(failed + 1);
      await waitFor(() => fake.contexts.get("custody.connected") === true, "the connection to come back");
    } finally {
      await harness.close();
    }
  });
});

describe("the gateway access token", () => {
  it("lives in secret storage, never in settings, and goes out as a bearer header", async () => {
    const seen: (string | undefined)[] = [];
    const gateway = createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.setHeader("content-type", "application/json");
      if (request.url === "/module/_health") response.end(JSON.stringify({ status: "OK", module_version: "1.19.2", api_version: "1.30.5" }));
      else response.writeHead(404).end(JSON.stringify({ message: "not here", name: "NotFound", status_code: 404 }));
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    const port = (gateway.address() as AddressInfo).port;
    const harness = await startHarness({ settings: { "custody.baseUrl": `http://127.0.0.1:${port}/module` } });
    try {
      expect(seen[0]).toBeUndefined();
      fake.script({ kind: "input", text: "s3cret-token" });
      const beforeToken = seen.length;
      await harness.run("custody.setAccessToken");
      // A refresh of the views started before the change may still arrive without it: wait for the reconnection's own call.
      await waitFor(() => seen.slice(beforeToken).includes("Bearer s3cret-token"), "a call with the bearer token");
      expect([...fake.settings.values()].some((value) => String(value).includes("s3cret-token"))).toBe(false);
      expect(fake.output.some((line) => line.includes("s3cret-token"))).toBe(false);
      fake.script({ kind: "input", text: "" });
      const afterToken = seen.length;
      await harness.run("custody.setAccessToken");
      await waitFor(() => seen.slice(afterToken).includes(undefined), "a call without the bearer token");
    } finally {
      await harness.close();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});
