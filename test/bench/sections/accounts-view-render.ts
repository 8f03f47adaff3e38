// The extension's Accounts view rendered headless: the real tree provider of extension/src,
// on the fake `vscode` module of extension/test/unit/support (the entry file mocks "vscode").
import { performance } from "node:perf_hooks";
import { AccessTokenStore } from "../../../extension/src/connection/access-token-store.js";
import { Connection } from "../../../extension/src/connection/connection.js";
import { OutputLog } from "../../../extension/src/output/output-log.js";
import { AccountsProvider } from "../../../extension/src/views/accounts-provider.js";
import type { TreeNode } from "../../../extension/src/views/tree-node.js";

export interface RenderResult {
  /** From an empty cache to every expanded node's tree item drawn. */
  ms: number;
  /** Tree items drawn: the network groups (expanded by default) and the accounts under them. */
  items: number;
  /** Labels of the top-level items, e.g. "Solana" or an error message. */
  roots: string[];
}

const NO_SECRETS = {
  get: () => Promise.resolve(undefined),
  store: () => Promise.resolve(),
  delete: () => Promise.resolve(),
  onDidChange: () => ({ dispose() {} }),
};

async function drawExpanded(provider: AccountsProvider, node: TreeNode | undefined, count: { items: number }): Promise<string[]> {
  const labels: string[] = [];
  for (const child of await provider.getChildren(node)) {
    const item = provider.getTreeItem(child);
    count.items += 1;
    labels.push(typeof item.label === "string" ? item.label : (item.label?.label ?? ""));
    // VS Code asks for the children of an expanded node (state 2) at once; collapsed ones wait for a click.
    if (item.collapsibleState === 2) await drawExpanded(provider, child, count);
  }
  return labels;
}

/** Connects as the operator and renders the Accounts view the way VS Code first draws it. */
export async function renderAccountsView(baseUrl: string, operator: string): Promise<RenderResult> {
  const connection = new Connection(new AccessTokenStore(NO_SECRETS as never));
  const state = await connection.connect({ baseUrl, operator, origin: "emulator" });
  if (state.kind !== "connected") throw new Error(`the extension could not connect: ${JSON.stringify(state)}`);
  const output = new OutputLog("Custody bench");
  const provider = new AccountsProvider(connection, output, "accounts");
  try {
    const count = { items: 0 };
    const started = performance.now();
    const roots = await drawExpanded(provider, undefined, count);
    return { ms: performance.now() - started, items: count.items, roots };
  } finally {
    provider.dispose();
    output.dispose();
    connection.dispose();
  }
}
