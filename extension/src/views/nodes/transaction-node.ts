import * as vscode from "vscode";
import { timestampToDate, type Currency, type Transaction } from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { accountNamed, labelText, markdownTooltip } from "../markdown-tooltip.js";
import { transactionStatusIcon } from "../status-icons.js";
import { TreeNode, type NodeTarget } from "../tree-node.js";
import type { ViewContext } from "../view-context.js";
import { HistoryEntryNode } from "./history-entry-node.js";
import { MessageNode } from "./message-node.js";

/** A transaction; its children are its change history. */
export class TransactionNode extends TreeNode {
  override readonly target: NodeTarget;

  constructor(
    private readonly view: ViewContext,
    readonly transaction: Transaction,
    readonly currency: Currency,
    /** The account's name, shown when the list mixes accounts. */
    private readonly accountName?: string,
  ) {
    super();
    this.target = { kind: "transaction", transaction, currency };
  }

  treeItem(): vscode.TreeItem {
    const tx = this.transaction;
    const item = new vscode.TreeItem(`#${tx.id} ${labelText(tx.type, 40)}`, vscode.TreeItemCollapsibleState.Collapsed);
    const parts = [displayAmount(tx.amount, this.currency), tx.status];
    if (this.accountName !== undefined) parts.push(labelText(this.accountName, 40));
    item.description = parts.join(" · ");
    item.iconPath = transactionStatusIcon(tx.status);
    item.contextValue = tx.status === "PENDING_APPROVAL" ? "transaction.pending" : "transaction.other";
    const notes = tx.notes.map((note) => `${note.title}: ${note.content}`).join("\n");
    item.tooltip = markdownTooltip(
      vscode.l10n.t("Transaction {0} ({1})", tx.id, tx.type),
      [
        [vscode.l10n.t("status"), tx.status],
        [vscode.l10n.t("account"), this.accountName === undefined ? String(tx.account_id) : accountNamed(this.accountName, tx.account_id)],
        [vscode.l10n.t("amount"), bothAmounts(tx.amount, this.currency)],
        [vscode.l10n.t("max fees"), bothAmounts(tx.max_fees, this.currency)],
        [vscode.l10n.t("fees"), tx.fees === null ? vscode.l10n.t("not yet broadcast") : bothAmounts(tx.fees, this.currency)],
        [vscode.l10n.t("recipient"), tx.recipient === "" ? undefined : tx.recipient],
        [vscode.l10n.t("speed"), tx.speed],
        [vscode.l10n.t("created"), timestampToDate(tx.created_on).toISOString()],
        [vscode.l10n.t("broadcast"), tx.broadcast_on ?? undefined],
        [vscode.l10n.t("tx hash"), tx.tx_hash ?? undefined],
        [vscode.l10n.t("confirmations"), vscode.l10n.t("{0} of {1}", tx.confirmations, tx.min_confirmations)],
        [vscode.l10n.t("governance request"), String(tx.last_request)],
      ],
      notes === "" ? undefined : vscode.l10n.t("Notes (workspace text):\n{0}", notes),
    );
    return item;
  }

  override async children(): Promise<TreeNode[]> {
    const { history } = await this.view.cache.client.getTransactionHistory(this.transaction.id);
    const several = history.length > 1;
    const nodes = history.flatMap((request, index) => request.map((entry) => new HistoryEntryNode(entry, several ? index + 1 : undefined)));
    return nodes.length > 0 ? nodes : [new MessageNode(vscode.l10n.t("No history entries"))];
  }
}
