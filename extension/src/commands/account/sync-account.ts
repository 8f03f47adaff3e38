import * as vscode from "vscode";
import { writeToolQuery } from "@custody/shared";
import { chooseAccount } from "../../input/pick-account.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { toolPermitted } from "../permission-check.js";
import { notify } from "../../output/notify.js";
import { labelText } from "../../views/markdown-tooltip.js";

/** The MCP server's tool of the same call: one policy entry governs both surfaces. */
const SYNC = writeToolQuery({ tool: "sync_account", toolset: "read" });

/** GET /accounts/{id}/sync: the service refreshes the account's transaction history. */
export const syncAccount: CommandDefinition = {
  id: "custody.syncAccount",
  async run(services: Services, node) {
    const { client, target } = services.connection.require();
    if (!toolPermitted(services, SYNC)) return;
    const choice = await chooseAccount(client, services.prompter, node?.target, { title: vscode.l10n.t("Custody: Sync Account") });
    if (!choice) return;
    const base = { operator: target.operator, tool: SYNC.name, request: { account_id: choice.account.id } };
    let result: { success: boolean };
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Custody: syncing {0}...", labelText(choice.account.name, 80)) },
        () => client.syncAccount(choice.account.id),
      );
    } catch (error) {
      await services.audit.recordFailure(base, error);
      throw error;
    }
    await services.audit.record({ ...base, event: result.success ? "submitted" : "failed", request_digest: null });
    const name = labelText(choice.account.name, 80);
    const message = result.success
      ? vscode.l10n.t("Custody: sync of {0} (id {1}) done.", name, choice.account.id)
      : vscode.l10n.t("Custody: sync of {0} (id {1}) reported no success.", name, choice.account.id);
    services.output.info(message);
    void notify(result.success ? "info" : "warning", message);
    services.refreshAll();
  },
};
