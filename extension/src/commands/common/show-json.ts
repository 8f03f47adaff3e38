import * as vscode from "vscode";
import { EthereumStake, SolanaStake, Transaction } from "@custody/shared";
import { chooseStake } from "../../input/pick-stake.js";
import { chooseTransaction } from "../../input/pick-transaction.js";
import { prettyJsonExact } from "../../output/pretty-json.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";

async function openJson(value: unknown): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: "json", content: `${prettyJsonExact(value)}\n` });
  await vscode.window.showTextDocument(document, { preview: true });
}

/** Opens a transaction or a stake, read fresh, in its wire form as JSON (amounts exact). */
export const showJson: CommandDefinition = {
  id: "custody.showJson",
  async run(services: Services, node) {
    const { client } = services.connection.require();
    const target = node?.target;
    if (target?.kind === "ethereum_stake") {
      await openJson(EthereumStake.encode(target.stake));
      return;
    }
    let kind = target?.kind;
    if (kind === undefined || kind === "account") {
      kind = await services.prompter.pick(vscode.l10n.t("Custody: Show as JSON"), [
        { label: vscode.l10n.t("A transaction"), value: "transaction" as const },
        { label: vscode.l10n.t("A Solana stake"), value: "solana_stake" as const },
      ]);
    }
    if (kind === "solana_stake") {
      const choice = await chooseStake(client, services.prompter, target, { title: vscode.l10n.t("Custody: Show Stake as JSON") });
      if (choice) await openJson(SolanaStake.encode(choice.stake));
    } else if (kind === "transaction") {
      const choice = await chooseTransaction(client, services.prompter, target, {
        title: vscode.l10n.t("Custody: Show Transaction as JSON"),
        pendingOnly: false,
      });
      if (choice) await openJson(Transaction.encode(choice.transaction));
    }
  },
};
