import * as vscode from "vscode";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";

export const disconnect: CommandDefinition = {
  id: "custody.disconnect",
  run(services: Services) {
    services.connection.disconnect();
    services.output.info(vscode.l10n.t("Disconnected"));
    void vscode.window.showInformationMessage(vscode.l10n.t("Custody: disconnected."));
    return Promise.resolve();
  },
};
