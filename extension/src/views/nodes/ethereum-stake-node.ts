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
    const item = new vscode.TreeItem(`${displayAmount(stake.amount, currency)} staked`, vscode.TreeItemCollapsibleState.None);
    item.description = [labelText(stake.account_name, 40), stake.status, labelText(stake.provider, 30)].join(" · ");
    item.iconPath = ethereumStakeIcon(stake.status);
    item.contextValue = "ethereumStake";
    item.tooltip = markdownTooltip(`Ethereum position ${stake.id}`, [
      ["account", `${stake.account_name} (id ${stake.account_id})`],
      ["status", stake.status],
      ["amount", bothAmounts(stake.amount, currency)],
      ["total reward", bothAmounts(stake.total_reward, currency)],
      ["provider", stake.provider],
      ["contract", `${shortAddress(stake.contract_address)} (${stake.contract_address})`],
      ["transaction", String(stake.transaction_id)],
      ["created", stake.created_on],
      ["active since", stake.activation_date ?? undefined],
    ]);
    return item;
  }
}
