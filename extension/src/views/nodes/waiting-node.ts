import * as vscode from "vscode";
import { oneLineUntrusted, renderText, writeSpecOfTool, type WaitingWrite } from "@custody/shared";
import { translate } from "../../output/translate.js";
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
    const title = writeSpecOfTool(this.write.tool)?.identity.title;
    return title === undefined ? this.write.tool : translate(title);
  }

  /** What moves, as the dry run said it, in the window's language when its text was kept (else in English); null when not kept. */
  get moves(): string | null {
    const text = this.write.moves_text;
    return text === null ? this.write.moves : oneLineUntrusted(renderText(text, translate));
  }

  /** The line it is listed by: what moves, or the write's title when the dry run did not keep it. */
  get label(): string {
    const moves = this.moves;
    return moves === null ? this.title : labelText(moves, 300);
  }

  treeItem(): vscode.TreeItem {
    // What moves first ("Send funds from account 1: 0.021 SOL ..."), as the modal's message says it.
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    const moves = this.moves ?? vscode.l10n.t("(open it to see what moves)");
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
