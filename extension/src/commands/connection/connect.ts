import * as vscode from "vscode";
import { EXAMPLE_BASE_URL, INPUT_LIMITS } from "@custody/shared";
import { readConnectionSettings, saveConnectionSettings } from "../../connection/connection-settings.js";
import { baseUrlProblem, operatorProblem } from "../../connection/settings-rules.js";
import type { Services } from "../../services.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { reportConnection } from "./report-connection.js";

/** Asks for the base URL and operator (prefilled from the settings), saves them, connects. */
export const connect: CommandDefinition = {
  id: "custody.connect",
  async run(services: Services) {
    const settings = readConnectionSettings();
    const baseUrl = await services.prompter.input({
      title: stepTitle(vscode.l10n.t("Connect to a Workspace"), 1, 2),
      limit: { field: "base URL", max: INPUT_LIMITS.base_url },
      prompt: vscode.l10n.t("Base URL of the custody module, with its own path segment"),
      value: settings.baseUrl,
      placeHolder: EXAMPLE_BASE_URL,
      validate: baseUrlProblem,
    });
    if (baseUrl === undefined) return;
    const operator = await services.prompter.input({
      title: stepTitle(vscode.l10n.t("Connect to a Workspace"), 2, 2),
      limit: { field: "operator", max: INPUT_LIMITS.operator_name },
      prompt: vscode.l10n.t("API operator name (sent as X-Vendor-API-User)"),
      value: settings.operator,
      validate: operatorProblem,
    });
    if (operator === undefined) return;
    await saveConnectionSettings(baseUrl.trim(), operator.trim());
    const state = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Custody: connecting...") }, () =>
      services.connection.connect({ baseUrl: baseUrl.trim(), operator: operator.trim(), origin: "settings" }),
    );
    reportConnection(services, state);
  },
};
