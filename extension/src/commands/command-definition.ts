import * as vscode from "vscode";
import type { Services } from "../services.js";
import type { TreeNode } from "../views/tree-node.js";

/** A command: its id in the manifest and what it does, given the node it was run on (none from the palette). */
export interface CommandDefinition {
  id: string;
  run(services: Services, node: TreeNode | undefined): Promise<void>;
}

/** "Custody: Stake SOL (2/3)". */
export function stepTitle(title: string, step: number, total: number): string {
  return vscode.l10n.t("Custody: {0} ({1}/{2})", title, step, total);
}
