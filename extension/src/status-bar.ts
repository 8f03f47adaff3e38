import * as vscode from "vscode";
import { errorMessage } from "@custody/shared";
import type { Connection } from "./connection/connection.js";
import type { ConnectionState } from "./connection/connection-state.js";
import { markdownTooltip } from "./views/markdown-tooltip.js";
import { translate } from "./output/translate.js";

/** Operator, connection state and the number of transactions pending approval. */
export class StatusBar implements vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  readonly #subscription: vscode.Disposable;
  #pending: number | string | undefined;
  #generation = 0;

  constructor(private readonly connection: Connection) {
    this.#item = vscode.window.createStatusBarItem("custody.status", vscode.StatusBarAlignment.Left, 50);
    this.#item.name = "Custody";
    this.#subscription = connection.onDidChange(() => {
      this.#pending = undefined;
      this.#draw();
      void this.refresh();
    });
    this.#draw();
    this.#item.show();
  }

  get text(): string {
    return this.#item.text;
  }

  /** Reads the pending count again (GET /transactions?status=PENDING_APPROVAL, one item: page_info.count is the total). */
  async refresh(): Promise<void> {
    const state = this.connection.state;
    if (state.kind !== "connected") return;
    const generation = ++this.#generation;
    let pending: number | string;
    try {
      pending = (await state.client.searchTransactions({ status: "PENDING_APPROVAL", page: 1, page_size: 1 })).page_info.count;
    } catch (error) {
      pending = vscode.l10n.t("unknown ({0})", errorMessage(error, 1000, translate));
    }
    if (generation !== this.#generation || this.connection.state !== state) return;
    this.#pending = pending;
    this.#draw();
  }

  #draw(): void {
    const state: ConnectionState = this.connection.state;
    const item = this.#item;
    switch (state.kind) {
      case "disconnected":
        item.text = vscode.l10n.t("$(debug-disconnect) Custody: not connected");
        item.tooltip = vscode.l10n.t("Custody: not connected. Click to connect to a workspace.");
        item.command = "custody.connect";
        item.backgroundColor = undefined;
        return;
      case "connecting":
        item.text = vscode.l10n.t("$(sync~spin) Custody: connecting as {0}", state.target.operator);
        item.tooltip = vscode.l10n.t("Connecting to {0}", state.target.baseUrl);
        item.command = undefined;
        item.backgroundColor = undefined;
        return;
      case "failed":
        item.text = vscode.l10n.t("$(error) Custody: {0} not connected", state.target.operator);
        item.tooltip = markdownTooltip(
          vscode.l10n.t("Custody: connection failed"),
          [
            [vscode.l10n.t("base URL"), state.target.baseUrl],
            [vscode.l10n.t("operator"), state.target.operator],
            [vscode.l10n.t("error"), state.message],
          ],
          vscode.l10n.t("Click to connect again."),
        );
        item.command = "custody.connect";
        item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
        return;
      case "connected": {
        const pending =
          typeof this.#pending === "number"
            ? vscode.l10n.t("{0} pending", this.#pending)
            : this.#pending === undefined
              ? vscode.l10n.t("… pending")
              : vscode.l10n.t("? pending");
        item.text = vscode.l10n.t(
          "$(shield) {0}{1} · {2}",
          state.target.operator,
          state.target.origin === "emulator" ? vscode.l10n.t(" (emulator)") : "",
          pending,
        );
        item.tooltip = markdownTooltip(
          vscode.l10n.t("Custody: connected"),
          [
            [vscode.l10n.t("operator"), state.target.operator],
            [vscode.l10n.t("base URL"), state.client.baseUrl],
            [vscode.l10n.t("workspace"), state.target.origin === "emulator" ? vscode.l10n.t("built-in emulator, demo workspace") : undefined],
            [vscode.l10n.t("module version"), state.health.module_version],
            [vscode.l10n.t("API version"), state.health.api_version],
            [vscode.l10n.t("pending approval"), typeof this.#pending === "number" ? String(this.#pending) : this.#pending],
          ],
          vscode.l10n.t("Click to show the Custody views."),
        );
        item.command = "workbench.view.extension.custody";
        item.backgroundColor = typeof this.#pending === "number" && this.#pending > 0 ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
        return;
      }
    }
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#item.dispose();
  }
}
