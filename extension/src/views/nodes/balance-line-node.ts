import * as vscode from "vscode";
import { TreeNode } from "../tree-node.js";
import { markdownTooltip } from "../markdown-tooltip.js";

/** One line of a balance breakdown: "Bonded  12 DOT"; may hold entries (unbonding chunks). */
export class BalanceLineNode extends TreeNode {
  constructor(
    private readonly label: string,
    private readonly value: string,
    private readonly detail: string | undefined,
    private readonly icon: string,
    private readonly entries: TreeNode[] = [],
  ) {
    super();
  }

  treeItem(): vscode.TreeItem {
    const state = this.entries.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(this.label, state);
    item.description = this.value;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    if (this.detail !== undefined) item.tooltip = markdownTooltip(this.label, [[vscode.l10n.t("value"), this.detail]]);
    item.contextValue = "balanceLine";
    return item;
  }

  override children(): Promise<TreeNode[]> {
    return Promise.resolve(this.entries);
  }
}
