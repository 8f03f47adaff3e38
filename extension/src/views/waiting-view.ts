import * as vscode from "vscode";
import type { WaitingProvider } from "./waiting-provider.js";

export const WAITING_VIEW_ID = "custody.waiting";

/** The "Waiting for you" view, its badge the number of writes waiting for the person. */
export function createWaitingView(provider: WaitingProvider): vscode.Disposable {
  const view = vscode.window.createTreeView(WAITING_VIEW_ID, { treeDataProvider: provider });
  const counting = provider.onDidCountWaiting((count) => {
    view.badge = count
      ? { value: count, tooltip: count === 1 ? vscode.l10n.t("1 write waits for you") : vscode.l10n.t("{0} writes wait for you", count) }
      : undefined;
  });
  return vscode.Disposable.from(counting, view);
}
