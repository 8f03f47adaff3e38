import * as vscode from "vscode";
import type { Transaction } from "@custody/shared";
import { CustodyTreeProvider } from "./custody-tree-provider.js";
import { LoadMoreNode } from "./nodes/load-more-node.js";
import { MessageNode } from "./nodes/message-node.js";
import { TransactionNode } from "./nodes/transaction-node.js";
import { TRANSACTION_PAGE_SIZE } from "./nodes/transaction-list-node.js";
import { PagedList } from "./paged-list.js";
import { shownCount } from "./shown-count.js";
import type { TreeNode } from "./tree-node.js";
import type { ViewContext } from "./view-context.js";

const PENDING_PAGE_SIZE = 100;

interface TransactionLists {
  pending: PagedList<Transaction>;
  recent: PagedList<Transaction>;
}

function pagedSearch(view: ViewContext, pageSize: number, status?: "PENDING_APPROVAL"): PagedList<Transaction> {
  const client = view.cache.client;
  return new PagedList(async (page) => {
    const result = await client.searchTransactions(status === undefined ? { page, page_size: pageSize } : { status, page, page_size: pageSize });
    return { items: result.edges.map((edge) => edge.node), hasMore: result.page_info.has_next_page, total: result.page_info.count };
  });
}

/**
 * Recent transactions, those pending approval first; each opens on its change history. Both
 * lists are read a page at a time ("Load more"), so no number of transactions makes it fail.
 */
export class TransactionsProvider extends CustodyTreeProvider {
  readonly #lists = new WeakMap<ViewContext, TransactionLists>();
  readonly #waiting = new vscode.EventEmitter<number | undefined>();
  /** How many transactions wait for approval, each time the view reads them; undefined while not connected. */
  readonly onDidCountWaiting = this.#waiting.event;

  override async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const nodes = await super.getChildren(node);
    if (node === undefined && this.connection.state.kind !== "connected") this.#waiting.fire(undefined);
    return nodes;
  }

  override dispose(): void {
    this.#waiting.dispose();
    super.dispose();
  }

  #listsFor(view: ViewContext): TransactionLists {
    let lists = this.#lists.get(view);
    if (!lists) {
      lists = { pending: pagedSearch(view, PENDING_PAGE_SIZE, "PENDING_APPROVAL"), recent: pagedSearch(view, TRANSACTION_PAGE_SIZE) };
      this.#lists.set(view, lists);
    }
    return lists;
  }

  protected async roots(view: ViewContext): Promise<TreeNode[]> {
    const lists = this.#listsFor(view);
    const [pending, recent] = await Promise.all([lists.pending.first(), lists.recent.first()]);
    this.#waiting.fire(lists.pending.total ?? pending.length);
    const node = async (tx: Transaction): Promise<TreeNode> => {
      const [account, currency] = await Promise.all([view.cache.account(tx.account_id), view.cache.currency(tx.currency)]);
      return new TransactionNode(view, tx, currency, account.name);
    };
    const pendingIds = new Set(pending.map((tx) => tx.id));
    const nodes: TreeNode[] = await Promise.all([...pending].sort((a, b) => b.id - a.id).map(node));
    if (lists.pending.hasMore) {
      nodes.push(
        new LoadMoreNode(
          lists.pending,
          () => view.refresh(),
          vscode.l10n.t("more pending transactions"),
          shownCount(pending.length, lists.pending.total, vscode.l10n.t("pending")),
        ),
      );
    }
    // A transaction still pending but beyond the pending pages read is shown among the recent ones.
    nodes.push(...(await Promise.all(recent.filter((tx) => !(tx.status === "PENDING_APPROVAL" && pendingIds.has(tx.id))).map(node))));
    if (nodes.length === 0) return [new MessageNode(vscode.l10n.t("No transactions yet"))];
    if (lists.recent.hasMore) nodes.push(new LoadMoreNode(lists.recent, () => view.refresh(), vscode.l10n.t("older transactions")));
    return nodes;
  }
}
