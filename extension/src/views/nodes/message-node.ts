import * as vscode from "vscode";
import { TreeNode } from "../tree-node.js";

/** A line of text in a tree: "No stakes", "Connect to see ...". */
export class MessageNode extends TreeNode {
  constructor(
    private readonly message: string,
    private readonly icon = "info",
  ) {
    super();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.message, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.contextValue = "message";
    return item;
  }
}
