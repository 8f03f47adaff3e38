import * as vscode from "vscode";
import type { Currency, Transaction } from "@custody/shared";
import { PagedList } from "../paged-list.js";
import { TreeNode } from "../tree-node.js";
import type { ViewContext } from "../view-context.js";
import { LoadMoreNode } from "./load-more-node.js";
import { MessageNode } from "./message-node.js";
import { TransactionNode } from "./transaction-node.js";

export const TRANSACTION_PAGE_SIZE = 20;

/** "Recent transactions" of one account, a page at a time. */
export class TransactionListNode extends TreeNode {
  readonly #list: PagedList<Transaction>;

  constructor(
    private readonly view: ViewContext,
    private readonly accountId: number,
    private readonly currency: Currency,
  ) {
    super();
    this.#list = new PagedList(async (page) => {
      const result = await view.cache.client.searchTransactions({ account_id: accountId, page, page_size: TRANSACTION_PAGE_SIZE });
      return { items: result.edges.map((edge) => edge.node), hasMore: result.page_info.has_next_page };
    });
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t("Recent transactions"), vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon("history");
    item.contextValue = "transactionList";
    return item;
  }

  override async children(): Promise<TreeNode[]> {
    const items = await this.#list.first();
    if (items.length === 0) return [new MessageNode(vscode.l10n.t("No transactions"))];
    const nodes: TreeNode[] = items.map((tx) => new TransactionNode(this.view, tx, this.currency));
    if (this.#list.hasMore) nodes.push(new LoadMoreNode(this.#list, () => this.view.refresh(this), vscode.l10n.t("more transactions")));
    return nodes;
  }
}
