import * as vscode from "vscode";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { reportConnection } from "./report-connection.js";

/** Starts the emulator inside VS Code on the demo workspace and connects to it as one of its operators. */
export const startEmulator: CommandDefinition = {
  id: "custody.startEmulator",
  async run(services: Services) {
    const emulator = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Custody: starting the built-in emulator...") },
      () => services.emulator.start(),
    );
    services.output.info(
      vscode.l10n.t("Built-in emulator serving the demo workspace at {0} (operators: {1})", emulator.baseUrl, emulator.operators.join(", ")),
    );
    let operator = emulator.operators[0];
    if (emulator.operators.length > 1) {
      operator = await services.prompter.pick(
        vscode.l10n.t("Custody: connect to the demo workspace as"),
        emulator.operators.map((name, index) => ({ label: name, description: index === 0 ? vscode.l10n.t("default") : undefined, value: name })),
        vscode.l10n.t("Choose the API operator"),
      );
    }
    if (operator === undefined) return;
    const state = await services.connection.connect({ baseUrl: emulator.baseUrl, operator, origin: "emulator", emulatorKey: emulator.key });
    reportConnection(services, state);
  },
};
