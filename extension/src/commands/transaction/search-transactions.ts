import * as vscode from "vscode";
import { Transaction, INPUT_LIMITS } from "@custody/shared";
import { transactionItems } from "../../input/pick-transaction.js";
import { prettyJsonExact } from "../../output/pretty-json.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { notify } from "../../output/notify.js";

const MAX_RESULTS_PAGES = 5;

/** GET /transactions?label=...: transactions whose note title or content matches; opens the chosen one as JSON. */
export const searchTransactions: CommandDefinition = {
  id: "custody.searchTransactions",
  async run(services: Services) {
    const { client } = services.connection.require();
    const label = await services.prompter.input({
      title: vscode.l10n.t("Custody: Search Transactions by Label"),
      limit: { field: "label", max: INPUT_LIMITS.label },
      prompt: vscode.l10n.t("Text to find in the transactions' note titles and contents"),
      validate: (text) => (text.trim() === "" ? vscode.l10n.t("label: must not be empty") : undefined),
    });
    if (label === undefined) return;
    const found = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Custody: searching...") }, () =>
      client.searchAllTransactions({ label: label.trim() }, { pageSize: 100, maxPages: MAX_RESULTS_PAGES }),
    );
    services.output.info(
      found.length === 0
        ? vscode.l10n.t("Search for {0}: no transaction", JSON.stringify(label.trim()))
        : vscode.l10n.t("Search for {0}: {1} transaction(s): {2}", JSON.stringify(label.trim()), found.length, found.map((tx) => `#${tx.id}`).join(", ")),
    );
    if (found.length === 0) {
      void notify("info", vscode.l10n.t("Custody: no transaction has a note matching {0}.", JSON.stringify(label.trim())));
      return;
    }
    const choice = await services.prompter.pick(
      vscode.l10n.t("Custody: {0} transaction(s) matching {1}", found.length, JSON.stringify(label.trim())),
      await transactionItems(client, found),
      vscode.l10n.t("Open one as JSON"),
    );
    if (!choice) return;
    const document = await vscode.workspace.openTextDocument({ language: "json", content: `${prettyJsonExact(Transaction.encode(choice.transaction))}\n` });
    await vscode.window.showTextDocument(document, { preview: true });
  },
};
