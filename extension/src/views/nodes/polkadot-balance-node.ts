import * as vscode from "vscode";
import { durationText, polkadotFrozen, type Currency, type PolkadotCoinFields, type UnbondingEntry } from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { labelText } from "../markdown-tooltip.js";
import { TreeNode } from "../tree-node.js";
import { BalanceLineNode } from "./balance-line-node.js";

/** The Polkadot breakdown of an account: available, bonded, unbonding (with waiting times), unbonded, rewards destination. */
export class PolkadotBalanceNode extends TreeNode {
  constructor(
    private readonly fields: PolkadotCoinFields,
    private readonly currency: Currency,
  ) {
    super();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t("Staking balances"), vscode.TreeItemCollapsibleState.Expanded);
    item.iconPath = new vscode.ThemeIcon("law");
    item.description = vscode.l10n.t("{0} bonded", displayAmount(this.fields.balances.bonded, this.currency));
    item.contextValue = "polkadotBalance";
    return item;
  }

  #entry(entry: UnbondingEntry, unbonded: boolean): TreeNode {
    const when = unbonded ? vscode.l10n.t("unbonded, ready to withdraw") : vscode.l10n.t("unbonded in {0}", durationText(entry.waiting_time));
    return new BalanceLineNode(displayAmount(entry.amount, this.currency), when, bothAmounts(entry.amount, this.currency), unbonded ? "unlock" : "watch");
  }

  override children(): Promise<TreeNode[]> {
    const { balances, staking } = this.fields;
    const line = (label: string, amount: bigint, icon: string, entries: TreeNode[] = []) =>
      new BalanceLineNode(label, displayAmount(amount, this.currency), bothAmounts(amount, this.currency), icon, entries);
    return Promise.resolve([
      line(vscode.l10n.t("Available"), balances.available, "credit-card"),
      line(vscode.l10n.t("Bonded"), balances.bonded, "lock"),
      line(
        vscode.l10n.t("Unbonding"),
        balances.total_unbonding,
        "watch",
        balances.unbonding.map((entry) => this.#entry(entry, false)),
      ),
      line(
        vscode.l10n.t("Unbonded"),
        balances.total_unbonded,
        "unlock",
        balances.unbonded.map((entry) => this.#entry(entry, true)),
      ),
      line(vscode.l10n.t("Frozen"), polkadotFrozen(balances), "circle-slash"),
      new BalanceLineNode(vscode.l10n.t("Rewards destination"), labelText(staking.rewards_destination, 40), undefined, "gift"),
    ]);
  }
}
