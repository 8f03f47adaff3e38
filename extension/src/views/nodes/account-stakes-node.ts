import * as vscode from "vscode";
import type { Account, Currency } from "@custody/shared";
import { TreeNode } from "../tree-node.js";
import type { ViewContext } from "../view-context.js";
import { MessageNode } from "./message-node.js";
import { stakeNodes } from "./stake-node.js";

/** The Solana stakes of one account (GET .../stakes: a bare array, no paging). */
export class AccountStakesNode extends TreeNode {
  constructor(
    private readonly view: ViewContext,
    private readonly account: Account,
    private readonly currency: Currency,
  ) {
    super();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t("Stakes"), vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon("layers");
    item.contextValue = "stakeList";
    return item;
  }

  override async children(): Promise<TreeNode[]> {
    const stakes = await this.view.cache.solanaStakes(this.account.id);
    if (stakes.length === 0) return [new MessageNode(vscode.l10n.t("No stakes"))];
    return stakeNodes(stakes, this.account, this.currency, this.view.cache.client.serviceNow(), false);
  }
}
