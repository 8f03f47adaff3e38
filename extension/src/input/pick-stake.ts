import * as vscode from "vscode";
import { accountNetwork, stakeAllows, type Account, type Currency, type CustodyClient, type SolanaStake, type SolanaStakeAction } from "@custody/shared";
import { displayAmount } from "../views/amount-text.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { NodeTarget } from "../views/tree-node.js";
import { NothingToPickError, pickAccountFrom } from "./pick-account.js";
import type { Prompter } from "./prompter.js";

export interface StakeChoice {
  stake: SolanaStake;
  account: Account;
  currency: Currency;
}

/** Up to this many Solana accounts, one pick lists the stakes of all; above, the account is picked first. */
export const ONE_STEP_ACCOUNTS = 20;

/**
 * The Solana stake a command acts on: the one whose context menu ran it (read again), else a
 * quick pick of the stakes (those whose `actions` list the action now, when one is given): of
 * every Solana account in a small workspace, of the account picked first in a larger one (the
 * stake list has one request per account and no paging).
 */
export async function chooseStake(
  client: CustodyClient,
  prompter: Prompter,
  target: NodeTarget | undefined,
  options: { title: string; action?: SolanaStakeAction },
): Promise<StakeChoice | undefined> {
  if (target?.kind === "solana_stake") {
    const [stake, account] = await Promise.all([client.getSolanaStake(target.account.id, target.stake.uid), client.getAccount(target.account.id)]);
    return { stake, account, currency: await client.getCurrency(account.currency) };
  }
  const accounts = (await client.listAllAccounts({ pageSize: 1000, maxPages: 1000 })).filter((account) => accountNetwork(account) === "Solana");
  if (accounts.length === 0) throw new NothingToPickError(vscode.l10n.t("the workspace has no Solana account"));
  let scope: readonly Account[] = accounts;
  if (accounts.length > ONE_STEP_ACCOUNTS) {
    const chosen = await pickAccountFrom(client, prompter, accounts, options.title);
    if (chosen === undefined) return undefined;
    scope = [chosen.account];
  }
  const currencies = new Map<string, Promise<Currency>>();
  const currencyOf = (name: string): Promise<Currency> => {
    const known = currencies.get(name) ?? client.getCurrency(name);
    currencies.set(name, known);
    return known;
  };
  const listed = await Promise.all(
    scope.map(async (account) => ({ account, stakes: await client.listSolanaStakes(account.id), currency: await currencyOf(account.currency) })),
  );
  const choices: StakeChoice[] = [];
  for (const { account, stakes, currency } of listed) {
    for (const stake of stakes) if (options.action === undefined || stakeAllows(stake, options.action)) choices.push({ stake, account, currency });
  }
  if (choices.length === 0) {
    const where =
      scope.length === 1 && scope !== accounts ? vscode.l10n.t("account {0} has", labelText(scope[0]?.name ?? "", 80)) : vscode.l10n.t("the workspace has");
    throw new NothingToPickError(
      options.action === undefined
        ? vscode.l10n.t("{0} no Solana stake", where)
        : vscode.l10n.t("{0} no Solana stake that allows {1} now", where, options.action),
    );
  }
  const items = choices.map((choice) => {
    const state = choice.stake.blockchain_state;
    return {
      label: `${displayAmount(state.total_balance, choice.currency)} · ${state.status}`,
      description: labelText(choice.account.name, 40),
      detail: vscode.l10n.t("validator {0} · stake {1}", labelText(state.validator_address, 64), labelText(choice.stake.uid, 64)),
      value: choice,
    };
  });
  return prompter.pick(options.title, items, vscode.l10n.t("Choose the stake"));
}
