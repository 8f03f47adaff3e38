import * as vscode from "vscode";
import { errorMessage } from "@custody/shared";
import { markdownTooltip } from "../markdown-tooltip.js";
import { TreeNode } from "../tree-node.js";
import { translate } from "../../output/translate.js";

/** Shown in place of a list whose read failed: a tree is never silently empty. */
export class ErrorNode extends TreeNode {
  readonly message: string;

  constructor(
    private readonly what: string,
    error: unknown,
  ) {
    super();
    this.message = errorMessage(error, 1000, translate);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t("Could not load {0}", this.what), vscode.TreeItemCollapsibleState.None);
    item.description = this.message;
    item.iconPath = new vscode.ThemeIcon("error", new vscode.ThemeColor("errorForeground"));
    item.tooltip = markdownTooltip(
      vscode.l10n.t("Could not load {0}", this.what),
      [[vscode.l10n.t("error"), this.message]],
      vscode.l10n.t("Refresh the view to try again; details are in the Custody output."),
    );
    item.contextValue = "error";
    item.command = { command: "custody.showOutput", title: vscode.l10n.t("Show Output") };
    return item;
  }
}
