import { accountNetwork, Network, type Account } from "@custody/shared";
import { CustodyTreeProvider } from "./custody-tree-provider.js";
import { AccountNode } from "./nodes/account-node.js";
import { GroupNode } from "./nodes/group-node.js";
import { MessageNode } from "./nodes/message-node.js";
import type { TreeNode } from "./tree-node.js";
import type { ViewContext } from "./view-context.js";

const OTHER = "Other networks";

/** Accounts, grouped by network (Solana, Polkadot, Ethereum, then any other). */
export class AccountsProvider extends CustodyTreeProvider {
  protected async roots(view: ViewContext): Promise<TreeNode[]> {
    const accounts = await view.cache.accounts();
    if (accounts.length === 0) return [new MessageNode("The workspace has no accounts")];
    const groups = new Map<string, Account[]>();
    for (const name of [...Network.options, OTHER]) groups.set(name, []);
    for (const account of accounts) groups.get(accountNetwork(account) ?? OTHER)?.push(account);
    return [...groups.entries()]
      .filter(([, members]) => members.length > 0)
      .map(
        ([network, members]) =>
          new GroupNode(
            network,
            async () => Promise.all(members.map(async (account) => new AccountNode(view, account, await view.cache.currency(account.currency)))),
            `${members.length} account${members.length === 1 ? "" : "s"}`,
          ),
      );
  }
}
