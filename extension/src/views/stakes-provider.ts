import * as vscode from "vscode";
import { accountNetwork } from "@custody/shared";
import { CustodyTreeProvider } from "./custody-tree-provider.js";
import { EthereumStakeNode } from "./nodes/ethereum-stake-node.js";
import { GroupNode } from "./nodes/group-node.js";
import { LoadMoreNode } from "./nodes/load-more-node.js";
import { MessageNode } from "./nodes/message-node.js";
import { stakeNodes } from "./nodes/stake-node.js";
import { shownCount } from "./shown-count.js";
import type { TreeNode } from "./tree-node.js";
import type { ViewContext } from "./view-context.js";

const ETHEREUM_PAGE_SIZE = 100;
const ETHEREUM_MAX_PAGES = 20;

/**
 * Solana stakes (total and state, when withdrawable, validator) and Ethereum positions, across the accounts
 * read so far (a page at a time, as in Accounts); "Load more accounts" adds the next page's.
 */
export class StakesProvider extends CustodyTreeProvider {
  protected async roots(view: ViewContext): Promise<TreeNode[]> {
    const pages = view.cache.accountPages();
    const accounts = await pages.first();
    const solana = accounts.filter((account) => accountNetwork(account) === "Solana");
    const ethereum = accounts.filter((account) => accountNetwork(account) === "Ethereum");
    const groups: TreeNode[] = [];
    if (solana.length > 0) {
      groups.push(
        new GroupNode(
          vscode.l10n.t("Solana stakes"),
          async () => {
            const lists = await Promise.all(
              solana.map(async (account) => {
                const [stakes, currency] = await Promise.all([view.cache.solanaStakes(account.id), view.cache.currency(account.currency)]);
                return stakeNodes(stakes, account, currency, view.cache.client.serviceNow(), true);
              }),
            );
            const nodes = lists.flat();
            return nodes.length > 0 ? nodes : [new MessageNode(vscode.l10n.t("No Solana stakes"))];
          },
          undefined,
          new vscode.ThemeIcon("layers"),
        ),
      );
    }
    if (ethereum.length > 0) {
      groups.push(
        new GroupNode(
          vscode.l10n.t("Ethereum positions"),
          async () => {
            const lists = await Promise.all(
              ethereum.map(async (account) => {
                const [positions, currency] = await Promise.all([
                  view.cache.client.listAllEthereumStakes(account.id, { pageSize: ETHEREUM_PAGE_SIZE, maxPages: ETHEREUM_MAX_PAGES }),
                  view.cache.currency(account.currency),
                ]);
                return positions.map((position) => new EthereumStakeNode(position, currency));
              }),
            );
            const nodes = lists.flat();
            return nodes.length > 0 ? nodes : [new MessageNode(vscode.l10n.t("No Ethereum positions"))];
          },
          undefined,
          new vscode.ThemeIcon("layers"),
        ),
      );
    }
    if (pages.hasMore)
      groups.push(
        new LoadMoreNode(pages, () => view.refresh(), vscode.l10n.t("more accounts"), shownCount(accounts.length, pages.total, vscode.l10n.t("accounts"))),
      );
    return groups.length > 0 ? groups : [new MessageNode(vscode.l10n.t("No Solana or Ethereum accounts, so no stakes"))];
  }
}
