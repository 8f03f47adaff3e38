import type { Transaction } from "@custody/shared";
import { CustodyTreeProvider } from "./custody-tree-provider.js";
import { LoadMoreNode } from "./nodes/load-more-node.js";
import { MessageNode } from "./nodes/message-node.js";
import { TransactionNode } from "./nodes/transaction-node.js";
import { TRANSACTION_PAGE_SIZE } from "./nodes/transaction-list-node.js";
import { PagedList } from "./paged-list.js";
import type { TreeNode } from "./tree-node.js";
import type { ViewContext } from "./view-context.js";

const PENDING_PAGE_SIZE = 100;
const PENDING_MAX_PAGES = 10;

interface TransactionLists {
  pending: Promise<Transaction[]>;
  recent: PagedList<Transaction>;
}

/** Recent transactions, those pending approval first; each opens on its change history. */
export class TransactionsProvider extends CustodyTreeProvider {
  readonly #lists = new WeakMap<ViewContext, TransactionLists>();

  #listsFor(view: ViewContext): TransactionLists {
    let lists = this.#lists.get(view);
    if (!lists) {
      const client = view.cache.client;
      lists = {
        pending: client.searchAllTransactions({ status: "PENDING_APPROVAL" }, { pageSize: PENDING_PAGE_SIZE, maxPages: PENDING_MAX_PAGES }),
        recent: new PagedList(async (page) => {
          const result = await client.searchTransactions({ page, page_size: TRANSACTION_PAGE_SIZE });
          return { items: result.edges.map((edge) => edge.node), hasMore: result.page_info.has_next_page };
        }),
      };
      lists.pending.catch(() => this.#lists.delete(view));
      this.#lists.set(view, lists);
    }
    return lists;
  }

  protected async roots(view: ViewContext): Promise<TreeNode[]> {
    const lists = this.#listsFor(view);
    const [pending, recent] = await Promise.all([lists.pending, lists.recent.first()]);
    const ordered = [...[...pending].sort((a, b) => b.id - a.id), ...recent.filter((tx) => tx.status !== "PENDING_APPROVAL")];
    if (ordered.length === 0) return [new MessageNode("No transactions yet")];
    const nodes: TreeNode[] = await Promise.all(
      ordered.map(async (tx) => {
        const [account, currency] = await Promise.all([view.cache.account(tx.account_id), view.cache.currency(tx.currency)]);
        return new TransactionNode(view, tx, currency, account.name);
      }),
    );
    if (lists.recent.hasMore) nodes.push(new LoadMoreNode(lists.recent, () => view.refresh(), "older transactions"));
    return nodes;
  }
}
