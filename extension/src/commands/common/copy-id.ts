import * as vscode from "vscode";
import { chooseTransaction } from "../../input/pick-transaction.js";
import type { Services } from "../../services.js";
import type { NodeTarget } from "../../views/tree-node.js";
import type { CommandDefinition } from "../command-definition.js";
import { copyExact } from "./copy-exact.js";

function idOf(target: NodeTarget): string {
  switch (target.kind) {
    case "account":
      return String(target.account.id);
    case "solana_stake":
      return target.stake.uid;
    case "ethereum_stake":
      return target.stake.id;
    case "transaction":
      return String(target.transaction.id);
  }
}

/** Copies the id of an account, a stake or a transaction; from the palette, of a transaction. */
export const copyId: CommandDefinition = {
  id: "custody.copyId",
  async run(services: Services, node) {
    let id = node?.target ? idOf(node.target) : undefined;
    if (id === undefined) {
      const { client } = services.connection.require();
      const choice = await chooseTransaction(client, services.prompter, undefined, { title: vscode.l10n.t("Custody: Copy ID"), pendingOnly: false });
      if (!choice) return;
      id = String(choice.transaction.id);
    }
    await copyExact("id", id);
  },
};
