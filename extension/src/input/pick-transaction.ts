import * as vscode from "vscode";
import type { Currency, CustodyClient, Transaction } from "@custody/shared";
import { displayAmount } from "../views/amount-text.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { NodeTarget } from "../views/tree-node.js";
import { NothingToPickError } from "./pick-account.js";
import type { Prompter } from "./prompter.js";

export interface TransactionChoice {
  transaction: Transaction;
  currency: Currency;
}

/** Quick-pick items for transactions, newest first. */
export async function transactionItems(client: CustodyClient, transactions: readonly Transaction[]) {
  const currencies = new Map<string, Currency>();
  for (const name of new Set(transactions.map((tx) => tx.currency))) currencies.set(name, await client.getCurrency(name));
  return [...transactions]
    .sort((a, b) => b.id - a.id)
    .map((transaction) => {
      const currency = currencies.get(transaction.currency) as Currency;
      const note = transaction.notes[0];
      return {
        label: `#${transaction.id} ${labelText(transaction.type, 40)} · ${displayAmount(transaction.amount, currency)}`,
        description: transaction.status,
        detail: [
          vscode.l10n.t("account {0}", transaction.account_id),
          transaction.recipient ? vscode.l10n.t("to {0}", labelText(transaction.recipient, 64)) : "",
          note ? vscode.l10n.t("note: {0}", labelText(note.title, 40)) : "",
        ]
          .filter((part) => part !== "")
          .join(" · "),
        value: { transaction, currency },
      };
    });
}

/**
 * The transaction a command acts on: the one whose context menu ran it (read again), else a
 * quick pick: the pending ones for an approval, otherwise pending and recent ones.
 */
export async function chooseTransaction(
  client: CustodyClient,
  prompter: Prompter,
  target: NodeTarget | undefined,
  options: { title: string; pendingOnly: boolean },
): Promise<TransactionChoice | undefined> {
  if (target?.kind === "transaction") {
    const transaction = await client.getTransaction(target.transaction.id);
    return { transaction, currency: await client.getCurrency(transaction.currency) };
  }
  const pending = await client.searchAllTransactions({ status: "PENDING_APPROVAL" }, { pageSize: 100, maxPages: 10 });
  let listed = pending;
  if (!options.pendingOnly) {
    const recent = await client.searchTransactions({ page: 1, page_size: 50 });
    const seen = new Set(pending.map((tx) => tx.id));
    listed = [...pending, ...recent.edges.map((edge) => edge.node).filter((tx) => !seen.has(tx.id))];
  }
  if (listed.length === 0)
    throw new NothingToPickError(
      options.pendingOnly ? vscode.l10n.t("no transaction is pending approval") : vscode.l10n.t("the workspace has no transactions"),
    );
  return prompter.pick(options.title, await transactionItems(client, listed), vscode.l10n.t("Choose the transaction"));
}
