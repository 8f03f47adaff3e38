import * as vscode from "vscode";
import { accountNetwork, Network, type Account } from "@custody/shared";
import { CustodyTreeProvider } from "./custody-tree-provider.js";
import { AccountNode } from "./nodes/account-node.js";
import { GroupNode } from "./nodes/group-node.js";
import { LoadMoreNode } from "./nodes/load-more-node.js";
import { MessageNode } from "./nodes/message-node.js";
import { shownCount } from "./shown-count.js";
import type { TreeNode } from "./tree-node.js";
import type { ViewContext } from "./view-context.js";

function accountsText(count: number): string {
  const text = count.toLocaleString("en-US");
  return count === 1 ? vscode.l10n.t("{0} account", text) : vscode.l10n.t("{0} accounts", text);
}

/**
 * Accounts, grouped by network (Solana, Polkadot, Ethereum, then any other). The first page is
 * shown at once; a workspace with more ends with "Load more accounts", which reads the next
 * page and files its accounts under their networks.
 */
export class AccountsProvider extends CustodyTreeProvider {
  protected async roots(view: ViewContext): Promise<TreeNode[]> {
    const pages = view.cache.accountPages();
    const accounts = await pages.first();
    if (accounts.length === 0) return [new MessageNode(vscode.l10n.t("The workspace has no accounts"))];
    const groups = new Map<string, Account[]>();
    const other = vscode.l10n.t("Other networks");
    for (const name of [...Network.options, other]) groups.set(name, []);
    for (const account of accounts) groups.get(accountNetwork(account) ?? other)?.push(account);
    const nodes: TreeNode[] = [...groups.entries()]
      .filter(([, members]) => members.length > 0)
      .map(
        ([network, members]) =>
          new GroupNode(
            network,
            async () => Promise.all(members.map(async (account) => new AccountNode(view, account, await view.cache.currency(account.currency)))),
            pages.hasMore ? vscode.l10n.t("{0} so far", accountsText(members.length)) : accountsText(members.length),
          ),
      );
    if (pages.hasMore)
      nodes.push(
        new LoadMoreNode(pages, () => view.refresh(), vscode.l10n.t("more accounts"), shownCount(accounts.length, pages.total, vscode.l10n.t("accounts"))),
      );
    return nodes;
  }
}
