import * as vscode from "vscode";
import { errorMessage } from "@custody/shared";
import { NothingToPickError } from "../input/pick-account.js";
import type { Services } from "../services.js";
import { TreeNode } from "../views/tree-node.js";
import { ALL_COMMANDS } from "./all-commands.js";
import { notify } from "../output/notify.js";
import { translate } from "../output/translate.js";

/** Registers every command; an error ends in a notification and the output channel, never silently. */
export function registerCommands(services: Services): vscode.Disposable[] {
  return ALL_COMMANDS.map((command) =>
    vscode.commands.registerCommand(command.id, async (argument: unknown) => {
      try {
        await command.run(services, argument instanceof TreeNode ? argument : undefined);
      } catch (error) {
        if (error instanceof NothingToPickError) {
          void notify("info", vscode.l10n.t("Custody: {0}.", error.message));
          return;
        }
        services.output.error(command.id, error);
        void notify("error", vscode.l10n.t("Custody: {0}", errorMessage(error, 1000, translate)));
      }
    }),
  );
}
