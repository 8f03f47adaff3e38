import * as vscode from "vscode";
import { chooseTransaction } from "../../input/pick-transaction.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { permitted } from "../permission-check.js";

/** Approves a transaction pending approval, through the guarded road (its exact amount and max_fees). */
export const approveTransaction: CommandDefinition = {
  id: "custody.approveTransaction",
  async run(services: Services, node) {
    if (!permitted(services, "approve_transaction")) return;
    const { client } = services.connection.require();
    const choice = await chooseTransaction(client, services.prompter, node?.target, {
      title: vscode.l10n.t("Custody: Approve Transaction"),
      pendingOnly: true,
    });
    if (!choice) return;
    await services.guard.run({ kind: "approve_transaction", transaction_id: choice.transaction.id });
  },
};
