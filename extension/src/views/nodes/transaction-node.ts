import * as vscode from "vscode";
import { timestampToDate, type Currency, type Transaction } from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { labelText, markdownTooltip } from "../markdown-tooltip.js";
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
      `Transaction ${tx.id} (${tx.type})`,
      [
        ["status", tx.status],
        ["account", this.accountName === undefined ? String(tx.account_id) : `${this.accountName} (id ${tx.account_id})`],
        ["amount", bothAmounts(tx.amount, this.currency)],
        ["max fees", bothAmounts(tx.max_fees, this.currency)],
        ["fees", tx.fees === null ? "not yet broadcast" : bothAmounts(tx.fees, this.currency)],
        ["recipient", tx.recipient === "" ? undefined : tx.recipient],
        ["speed", tx.speed],
        ["created", timestampToDate(tx.created_on).toISOString()],
        ["broadcast", tx.broadcast_on ?? undefined],
        ["tx hash", tx.tx_hash ?? undefined],
        ["confirmations", `${tx.confirmations} of ${tx.min_confirmations}`],
        ["governance request", String(tx.last_request)],
      ],
      notes === "" ? undefined : `Notes (workspace text):\n${notes}`,
    );
    return item;
  }

  override async children(): Promise<TreeNode[]> {
    const { history } = await this.view.cache.client.getTransactionHistory(this.transaction.id);
    const several = history.length > 1;
    const nodes = history.flatMap((request, index) => request.map((entry) => new HistoryEntryNode(entry, several ? index + 1 : undefined)));
    return nodes.length > 0 ? nodes : [new MessageNode("No history entries")];
  }
}
