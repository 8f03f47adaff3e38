import * as vscode from "vscode";
import type { Services } from "../../services.js";
import { DECIDE_WAITING_COMMAND, WaitingNode } from "../../views/nodes/waiting-node.js";
import type { CommandDefinition } from "../command-definition.js";

/** Confirms or declines a write an assistant prepared for this person: the one chosen in "Waiting for you", or one picked from it. */
export const decideWaiting: CommandDefinition = {
  id: DECIDE_WAITING_COMMAND,
  async run(services: Services, node) {
    let chosen = node instanceof WaitingNode ? node : undefined;
    if (chosen === undefined) {
      const nodes = (await services.waiting.writes()).map((write) => new WaitingNode(write));
      if (nodes.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t("Custody: no write waits for you."));
        return;
      }
      chosen = await services.prompter.pick(
        vscode.l10n.t("Custody: Waiting for You"),
        nodes.map((each) => ({ label: each.label, detail: each.write.reference, value: each })),
      );
      if (chosen === undefined) return;
    }
    try {
      await services.guard.decideWaiting(chosen.write);
    } finally {
      await services.waiting.read();
    }
  },
};
