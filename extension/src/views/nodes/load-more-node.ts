import * as vscode from "vscode";
import { TreeNode } from "../tree-node.js";

export interface MoreSource {
  more(): Promise<void>;
}

/** The last row of a long list: running it reads the next page and redraws the list. */
export class LoadMoreNode extends TreeNode {
  constructor(
    private readonly source: MoreSource,
    private readonly redraw: () => void,
    private readonly what = "more",
  ) {
    super();
  }

  async load(): Promise<void> {
    await this.source.more();
    this.redraw();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(`Load ${this.what}...`, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon("ellipsis");
    item.contextValue = "loadMore";
    item.command = { command: "custody.loadMore", title: "Load More", arguments: [this] };
    return item;
  }
}
