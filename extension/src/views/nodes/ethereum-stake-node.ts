import * as vscode from "vscode";
import type { Currency, EthereumStake } from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { labelText, markdownTooltip } from "../markdown-tooltip.js";
import { ethereumStakeIcon } from "../status-icons.js";
import { TreeNode, type NodeTarget } from "../tree-node.js";
import { shortAddress } from "./stake-node.js";

/** An Ethereum staking position with its provider. */
export class EthereumStakeNode extends TreeNode {
  override readonly target: NodeTarget;

  constructor(
    readonly stake: EthereumStake,
    readonly currency: Currency,
  ) {
    super();
    this.target = { kind: "ethereum_stake", stake, currency };
  }

  treeItem(): vscode.TreeItem {
    const { stake, currency } = this;
    const item = new vscode.TreeItem(vscode.l10n.t("{0} staked", displayAmount(stake.amount, currency)), vscode.TreeItemCollapsibleState.None);
    item.description = [labelText(stake.account_name, 40), stake.status, labelText(stake.provider, 30)].join(" · ");
    item.iconPath = ethereumStakeIcon(stake.status);
    item.contextValue = "ethereumStake";
    item.tooltip = markdownTooltip(vscode.l10n.t("Ethereum position {0}", stake.id), [
      [vscode.l10n.t("account"), vscode.l10n.t("{0} (id {1})", stake.account_name, stake.account_id)],
      [vscode.l10n.t("status"), stake.status],
      [vscode.l10n.t("amount"), bothAmounts(stake.amount, currency)],
      [vscode.l10n.t("total reward"), bothAmounts(stake.total_reward, currency)],
      [vscode.l10n.t("provider"), stake.provider],
      [vscode.l10n.t("contract"), `${shortAddress(stake.contract_address)} (${stake.contract_address})`],
      [vscode.l10n.t("transaction"), String(stake.transaction_id)],
      [vscode.l10n.t("created"), stake.created_on],
      [vscode.l10n.t("active since"), stake.activation_date ?? undefined],
    ]);
    return item;
  }
}
