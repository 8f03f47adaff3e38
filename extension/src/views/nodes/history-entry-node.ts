import * as vscode from "vscode";
import type { HistoryEntry } from "@custody/shared";
import { labelText, markdownTooltip } from "../markdown-tooltip.js";
import { transactionStatusIcon } from "../status-icons.js";
import { TreeNode } from "../tree-node.js";

/** One entry of a transaction's change history (GET /transactions/{id}/history). */
export class HistoryEntryNode extends TreeNode {
  constructor(
    private readonly entry: HistoryEntry,
    /** 1-based request number when the history holds several requests, else undefined. */
    private readonly request: number | undefined,
  ) {
    super();
  }

  treeItem(): vscode.TreeItem {
    const { entry } = this;
    const item = new vscode.TreeItem(entry.status, vscode.TreeItemCollapsibleState.None);
    const request = this.request === undefined ? "" : vscode.l10n.t(" · request {0}", this.request);
    item.description = `${labelText(entry.type, 40)} · ${entry.created_on}${request}`;
    item.iconPath = transactionStatusIcon(entry.status);
    item.tooltip = markdownTooltip(vscode.l10n.t("History entry {0}", entry.id), [
      [vscode.l10n.t("status"), entry.status],
      [vscode.l10n.t("type"), entry.type],
      [vscode.l10n.t("created on"), entry.created_on],
      [vscode.l10n.t("created by (user id)"), String(entry.created_by)],
      [vscode.l10n.t("expires at"), entry.expired_at],
      [vscode.l10n.t("complete"), entry.is_complete ? vscode.l10n.t("yes") : vscode.l10n.t("no")],
    ]);
    item.contextValue = "historyEntry";
    return item;
  }
}
