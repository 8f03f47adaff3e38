import * as vscode from "vscode";
import { networkIcon } from "../status-icons.js";
import { TreeNode } from "../tree-node.js";

/** A heading that groups nodes: a network in Accounts, a kind of stake in Stakes. */
export class GroupNode extends TreeNode {
  constructor(
    private readonly label: string,
    private readonly nodes: () => Promise<TreeNode[]>,
    private readonly description?: string,
    private readonly icon: vscode.ThemeIcon = networkIcon(label),
  ) {
    super();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.Expanded);
    if (this.description !== undefined) item.description = this.description;
    item.iconPath = this.icon;
    item.contextValue = "group";
    return item;
  }

  override children(): Promise<TreeNode[]> {
    return this.nodes();
  }
}
