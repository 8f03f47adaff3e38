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
    private readonly what = vscode.l10n.t("more"),
    /** Shown beside the label, e.g. "200 of 10,001 shown". */
    private readonly description?: string,
  ) {
    super();
  }

  async load(): Promise<void> {
    await this.source.more();
    this.redraw();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t("Load {0}...", this.what), vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon("ellipsis");
    if (this.description !== undefined) item.description = this.description;
    item.contextValue = "loadMore";
    item.command = { command: "custody.loadMore", title: vscode.l10n.t("Load More"), arguments: [this] };
    return item;
  }
}
