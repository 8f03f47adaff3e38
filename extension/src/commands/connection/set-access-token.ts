import * as vscode from "vscode";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { INPUT_LIMITS } from "@custody/shared";

/** Stores (or clears, when left empty) the gateway access token in SecretStorage, then reconnects. */
export const setAccessToken: CommandDefinition = {
  id: "custody.setAccessToken",
  async run(services: Services) {
    const token = await services.prompter.input({
      title: vscode.l10n.t("Custody: Gateway Access Token"),
      limit: { field: "access token", max: INPUT_LIMITS.access_token },
      prompt: vscode.l10n.t("Bearer token for a gateway in front of the module, kept in VS Code's secret storage. Leave empty to clear it."),
      password: true,
      validate: (text) => (/\s/.test(text) ? vscode.l10n.t("access token: must contain no spaces") : undefined),
    });
    if (token === undefined) return;
    if (token === "") await services.tokens.clear();
    else await services.tokens.set(token);
    services.output.info(token === "" ? vscode.l10n.t("Gateway access token cleared") : vscode.l10n.t("Gateway access token stored in secret storage"));
    void vscode.window.showInformationMessage(token === "" ? vscode.l10n.t("Custody: access token cleared.") : vscode.l10n.t("Custody: access token stored."));
    const state = services.connection.state;
    if ((state.kind === "connected" || state.kind === "failed") && state.target.origin === "settings") await services.connection.connect(state.target);
  },
};
