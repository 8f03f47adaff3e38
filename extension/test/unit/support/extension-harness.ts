import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { CustodyClient, type Transaction } from "@custody/shared";
import { activate } from "../../../src/extension.js";
import type { CustodyTreeProvider } from "../../../src/views/custody-tree-provider.js";
import type { TreeNode } from "../../../src/views/tree-node.js";
import { ExtensionMode, fake, Uri, type TreeItem } from "./fake-vscode.js";

export interface TreeLine {
  depth: number;
  label: string;
  description: string;
  contextValue: string;
  node: TreeNode;
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The tree of a view as lines, expanding every collapsible node down to `depth`. */
export async function treeLines(provider: CustodyTreeProvider, depth: number, from?: TreeNode, level = 0): Promise<TreeLine[]> {
  const out: TreeLine[] = [];
  for (const node of await provider.getChildren(from)) {
    const item = node.treeItem() as unknown as TreeItem;
    out.push({ depth: level, label: item.label, description: item.description ?? "", contextValue: item.contextValue ?? "", node });
    if (level + 1 < depth && item.collapsibleState !== 0) out.push(...(await treeLines(provider, depth, node, level + 1)));
  }
  return out;
}

export interface Harness {
  baseUrl: string;
  controlUrl: string;
  operator: string;
  /** A client of its own, to check what the extension did. */
  client: CustodyClient;
  storage: string;
  provider(view: "accounts" | "stakes" | "transactions"): CustodyTreeProvider;
  run(command: string, ...args: unknown[]): Promise<unknown>;
  stopEmulator(): Promise<void>;
  /** Disposes what the extension registered (as VS Code does when it deactivates it); the storage stays. */
  deactivate(): void;
  close(): Promise<void>;
}

/**
 * The extension activated against the fake vscode, with the user's settings pointing at an
 * emulator on the demo workspace (in memory, on a free port), and connected (unless the settings given make it fail).
 */
export async function startHarness(
  options: { operator?: string; settings?: Record<string, unknown>; mode?: ExtensionMode; /** Default: connected. */ until?: "connected" | "failed" } = {},
): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, seed: "demo", dataDir: null, processingDelayMs: 10, log: () => undefined });
  const operator = options.operator ?? "staking-bot";
  const storage = mkdtempSync(join(tmpdir(), "custody-vscode-"));
  fake.reset();
  fake.settings.set("custody.baseUrl", emulator.baseUrl);
  fake.settings.set("custody.operator", operator);
  fake.settings.set("custody.refreshIntervalSeconds", 0);
  // Each test's log in its own storage, never the user's shared default (a test of the default clears this).
  fake.settings.set("custody.auditLog", join(storage, "audit", "custody-vscode-audit.jsonl"));
  for (const [key, value] of Object.entries(options.settings ?? {})) fake.settings.set(key, value);
  const secrets = new Map<string, string>();
  const subscriptions: { dispose(): unknown }[] = [];
  const context = {
    subscriptions,
    secrets: {
      get: (key: string) => Promise.resolve(secrets.get(key)),
      store: (key: string, value: string) => Promise.resolve(void secrets.set(key, value)),
      delete: (key: string) => Promise.resolve(void secrets.delete(key)),
    },
    globalStorageUri: Uri.file(storage),
    extensionMode: options.mode ?? ExtensionMode.Production,
    asAbsolutePath: (path: string) => join(storage, path),
    extension: { packageJSON: { version: "0.1.0" } },
  };
  const api = activate(context as never);
  fake.extensions.set("custody-toolkit.custody-workspace", { activate: () => Promise.resolve(api) });
  if (options.until === "failed") await waitFor(() => fake.contexts.get("custody.connectionFailed") === true, "the extension's connection to fail");
  else await waitFor(() => fake.contexts.get("custody.connected") === true, "the extension to connect");
  let stopped = false;
  const stop = async () => {
    if (!stopped) await emulator.close();
    stopped = true;
  };
  return {
    baseUrl: emulator.baseUrl,
    controlUrl: emulator.controlUrl,
    operator,
    client: new CustodyClient({ baseUrl: emulator.baseUrl, operator }),
    storage,
    provider: (view) => fake.treeViews.get(`custody.${view}`)?.treeDataProvider as CustodyTreeProvider,
    run: async (command, ...args) => {
      const handler = fake.commands.get(command);
      if (!handler) throw new Error(`no command ${command}`);
      return handler(...args);
    },
    stopEmulator: stop,
    deactivate: () => {
      for (const subscription of subscriptions.splice(0)) subscription.dispose();
    },
    async close() {
      for (const subscription of subscriptions.splice(0)) subscription.dispose();
      await stop();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

/** The workspace's newest transaction, as a harness's own client reads it. */
export async function newestTransaction(harness: Harness): Promise<Transaction | undefined> {
  return (await harness.client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
}

/** A Solana send created by `operator` straight through the API, not through the extension: another operator's write, waiting for approval. */
export function solanaSendAs(
  harness: Harness,
  operator: string,
  send: { account_name: string; lamports: string; max_fees: string; recipient: string },
): Promise<Transaction> {
  return new CustodyClient({ baseUrl: harness.baseUrl, operator }).createTransaction({
    account_name: send.account_name,
    amount: { value: send.lamports, unit: "lamport" },
    max_fees: { value: send.max_fees, unit: "lamport" },
    recipient: send.recipient,
    speed: "NORMAL",
    coin_fields: { type: "SEND" },
  });
}

/**
 * The answers to Custody: Create Transaction for 1.5 SOL to `recipient` from the account picked by
 * `label`, the modal answered with `choice` (its button as shown: "Submit", or its translation; after `before`, when given).
 */
export function scriptSend(label: string, recipient: string, choice: string, before?: () => Promise<void>): void {
  fake.script(
    { kind: "pick", label },
    { kind: "input", text: recipient },
    { kind: "input", text: "1.5" },
    { kind: "input", text: "" },
    { kind: "pick", label: "NORMAL" },
    { kind: "input", text: "" },
    { kind: "modal", choice, ...(before === undefined ? {} : { before }) },
  );
}
