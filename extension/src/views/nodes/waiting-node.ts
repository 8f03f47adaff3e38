import * as vscode from "vscode";
import { writeSpecOfTool, type WaitingWrite } from "@custody/shared";
import { labelText, markdownTooltip } from "../markdown-tooltip.js";
import { TreeNode } from "../tree-node.js";

export const DECIDE_WAITING_COMMAND = "custody.decideWaiting";

/** A write an assistant prepared that waits for this person: choosing it opens the confirmation modal (Confirm, Decline). */
export class WaitingNode extends TreeNode {
  constructor(readonly write: WaitingWrite) {
    super();
  }

  /** The write's own title ("Create transaction"), never the assistant's words. */
  get title(): string {
    return writeSpecOfTool(this.write.tool)?.identity.title ?? this.write.tool;
  }

  /** The line it is listed by: what moves, or the write's title when the dry run did not keep it. */
  get label(): string {
    return this.write.moves === null ? this.title : labelText(this.write.moves, 300);
  }

  treeItem(): vscode.TreeItem {
    // What moves first ("Send funds from sol-treasury (id 1): 0.021 SOL ..."), as the modal's message says it.
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    const moves = this.write.moves ?? vscode.l10n.t("(open it to see what moves)");
    const expires = new Date(this.write.expires_at).toISOString();
    item.description = this.write.reference;
    item.iconPath = new vscode.ThemeIcon("bell-dot");
    item.tooltip = markdownTooltip(
      this.title,
      [
        [vscode.l10n.t("what moves"), moves],
        [vscode.l10n.t("reference"), this.write.reference],
        [vscode.l10n.t("expires"), expires],
      ],
      vscode.l10n.t("An assistant prepared this write. Nothing is sent unless you confirm it."),
    );
    item.contextValue = "waitingWrite";
    item.command = { command: DECIDE_WAITING_COMMAND, title: vscode.l10n.t("Confirm or Decline"), arguments: [this] };
    return item;
  }
}
