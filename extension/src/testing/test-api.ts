import type * as vscode from "vscode";
import type { ConnectionState } from "../connection/connection-state.js";
import type { CustodyTreeProvider } from "../views/custody-tree-provider.js";
import type { TreeNode } from "../views/tree-node.js";
import type { ViewName, ViewRegistry } from "../views/view-registry.js";
import type { Connection } from "../connection/connection.js";
import type { ScriptedAnswer, ScriptedPrompter } from "./scripted-prompter.js";

export interface TreeLine {
  depth: number;
  label: string;
  description: string;
  contextValue: string;
}

/** What the extension exports in extension mode Test only: scripted answers and a view of the trees. */
export interface CustodyTestApi {
  script(...answers: ScriptedAnswer[]): void;
  remainingAnswers(): number;
  connectionState(): ConnectionState;
  /** The tree as text, expanding nodes down to `depth`. */
  treeLines(view: ViewName, depth: number): Promise<TreeLine[]>;
}

function text(value: string | vscode.TreeItemLabel | undefined): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : value.label;
}

async function walk(provider: CustodyTreeProvider, node: TreeNode | undefined, depth: number, maxDepth: number, out: TreeLine[]): Promise<void> {
  for (const child of await provider.getChildren(node)) {
    const item = child.treeItem();
    out.push({
      depth,
      label: text(item.label),
      description: typeof item.description === "string" ? item.description : "",
      contextValue: item.contextValue ?? "",
    });
    if (depth + 1 < maxDepth && item.collapsibleState !== 0) await walk(provider, child, depth + 1, maxDepth, out);
  }
}

export function createTestApi(prompter: ScriptedPrompter, views: ViewRegistry, connection: Connection): CustodyTestApi {
  return {
    script: (...answers) => prompter.script(...answers),
    remainingAnswers: () => prompter.remaining,
    connectionState: () => connection.state,
    async treeLines(view, depth) {
      const out: TreeLine[] = [];
      await walk(views.providers[view], undefined, 0, depth, out);
      return out;
    },
  };
}
