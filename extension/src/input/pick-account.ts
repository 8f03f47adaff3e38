import * as vscode from "vscode";
import { accountNetwork, type Account, type Currency, type CustodyClient, type Network } from "@custody/shared";
import type { NodeTarget } from "../views/tree-node.js";
import { displayAmount } from "../views/amount-text.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { Prompter } from "./prompter.js";

export interface AccountChoice {
  account: Account;
  currency: Currency;
}

export class NothingToPickError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NothingToPickError";
  }
}

/**
 * The account a command acts on: the one whose context menu ran it (read again, so checks as
 * typed use fresh balances), else a quick pick of the workspace's accounts on the network.
 */
export async function chooseAccount(
  client: CustodyClient,
  prompter: Prompter,
  target: NodeTarget | undefined,
  options: { title: string; network?: Network },
): Promise<AccountChoice | undefined> {
  if (target?.kind === "account" && (options.network === undefined || accountNetwork(target.account) === options.network)) {
    const account = await client.getAccount(target.account.id);
    return { account, currency: await client.getCurrency(account.currency) };
  }
  const accounts = (await client.listAllAccounts({ pageSize: 1000, maxPages: 1000 })).filter(
    (account) => options.network === undefined || accountNetwork(account) === options.network,
  );
  if (accounts.length === 0) throw new NothingToPickError(vscode.l10n.t("the workspace has no {0} account", options.network ?? "").replace("  ", " "));
  return pickAccountFrom(client, prompter, accounts, options.title);
}

/** A quick pick of these accounts, each with its available balance in display units. */
export async function pickAccountFrom(
  client: CustodyClient,
  prompter: Prompter,
  accounts: readonly Account[],
  title: string,
): Promise<AccountChoice | undefined> {
  const currencies = new Map<string, Currency>();
  for (const name of new Set(accounts.map((account) => account.currency))) currencies.set(name, await client.getCurrency(name));
  const items = accounts.map((account) => {
    const currency = currencies.get(account.currency) as Currency;
    return {
      label: labelText(account.name),
      description: vscode.l10n.t("{0} available", displayAmount(account.available_balance, currency)),
      detail: vscode.l10n.t("id {0} · {1} · {2}", account.id, accountNetwork(account) ?? account.type, labelText(account.address, 64)),
      value: { account, currency },
    };
  });
  return prompter.pick(title, items, vscode.l10n.t("Choose the account"));
}
