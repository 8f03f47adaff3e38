import * as vscode from "vscode";
import type { Connection } from "../connection/connection.js";
import type { OutputLog } from "../output/output-log.js";
import { AccountsProvider } from "./accounts-provider.js";
import type { CustodyTreeProvider } from "./custody-tree-provider.js";
import { StakesProvider } from "./stakes-provider.js";
import { TransactionsProvider } from "./transactions-provider.js";

export const VIEW_IDS = { accounts: "custody.accounts", stakes: "custody.stakes", transactions: "custody.transactions" } as const;
export type ViewName = keyof typeof VIEW_IDS;

/** The three trees of the Custody container. */
export class ViewRegistry implements vscode.Disposable {
  readonly providers: Record<ViewName, CustodyTreeProvider>;
  readonly #disposables: vscode.Disposable[] = [];

  constructor(connection: Connection, output: OutputLog) {
    this.providers = {
      accounts: new AccountsProvider(connection, output, "accounts"),
      stakes: new StakesProvider(connection, output, "stakes"),
      transactions: new TransactionsProvider(connection, output, "transactions"),
    };
    for (const [name, provider] of Object.entries(this.providers) as [ViewName, CustodyTreeProvider][]) {
      const view = vscode.window.createTreeView(VIEW_IDS[name], { treeDataProvider: provider, showCollapseAll: true });
      this.#disposables.push(provider, view);
      if (provider instanceof TransactionsProvider) {
        // The number waiting for approval, on the view's title (and on the container's icon).
        this.#disposables.push(
          provider.onDidCountWaiting((count) => {
            view.badge = count
              ? {
                  value: count,
                  tooltip: count === 1 ? vscode.l10n.t("1 transaction waits for approval") : vscode.l10n.t("{0} transactions wait for approval", count),
                }
              : undefined;
          }),
        );
      }
    }
  }

  refresh(name: ViewName): void {
    this.providers[name].refresh();
  }

  refreshAll(): void {
    for (const provider of Object.values(this.providers)) provider.refresh();
  }

  dispose(): void {
    for (const disposable of this.#disposables) disposable.dispose();
  }
}
