import * as vscode from "vscode";
import { accountNetwork, isPolkadotAccount, type Account, type Currency } from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { accountNamed, labelText, markdownTooltip } from "../markdown-tooltip.js";
import { TreeNode, type NodeTarget } from "../tree-node.js";
import type { ViewContext } from "../view-context.js";
import { AccountStakesNode } from "./account-stakes-node.js";
import { PolkadotBalanceNode } from "./polkadot-balance-node.js";
import { TransactionListNode } from "./transaction-list-node.js";

function governanceLine(account: Account): string | undefined {
  const rules = account.governance_rules;
  if (!rules) return undefined;
  const names = [
    vscode.l10n.t("transaction"),
    rules.staking ? vscode.l10n.t("staking") : undefined,
    rules.smart_contract ? vscode.l10n.t("smart contract") : undefined,
  ].filter((name) => name !== undefined);
  return names.join(", ");
}

/** An account with its balance in display units; children: Polkadot breakdown, Solana stakes, recent transactions. */
export class AccountNode extends TreeNode {
  override readonly target: NodeTarget;

  constructor(
    private readonly view: ViewContext,
    readonly account: Account,
    readonly currency: Currency,
  ) {
    super();
    this.target = { kind: "account", account, currency };
  }

  treeItem(): vscode.TreeItem {
    const { account, currency } = this;
    const network = accountNetwork(account);
    const item = new vscode.TreeItem(labelText(account.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.description = displayAmount(account.balance, currency);
    item.iconPath = new vscode.ThemeIcon("credit-card");
    item.contextValue = `account.${network === null ? "other" : network.toLowerCase()}`;
    item.tooltip = markdownTooltip(accountNamed(account.name, account.id), [
      [vscode.l10n.t("network"), network ?? account.type],
      [vscode.l10n.t("currency"), account.currency],
      [vscode.l10n.t("address"), account.address],
      [vscode.l10n.t("balance"), bothAmounts(account.balance, currency)],
      [vscode.l10n.t("available"), bothAmounts(account.available_balance, currency)],
      [vscode.l10n.t("governance rules"), governanceLine(account)],
    ]);
    return item;
  }

  override children(): Promise<TreeNode[]> {
    const { account, currency } = this;
    const nodes: TreeNode[] = [];
    if (isPolkadotAccount(account)) nodes.push(new PolkadotBalanceNode(account.coin_fields, currency));
    if (accountNetwork(account) === "Solana") nodes.push(new AccountStakesNode(this.view, account, currency));
    nodes.push(new TransactionListNode(this.view, account.id, currency));
    return Promise.resolve(nodes);
  }
}
