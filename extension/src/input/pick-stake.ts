import { accountNetwork, stakeAllows, type Account, type Currency, type CustodyClient, type SolanaStake, type SolanaStakeAction } from "@custody/shared";
import { displayAmount } from "../views/amount-text.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { NodeTarget } from "../views/tree-node.js";
import { NothingToPickError } from "./pick-account.js";
import type { Prompter } from "./prompter.js";

export interface StakeChoice {
  stake: SolanaStake;
  account: Account;
  currency: Currency;
}

/**
 * The Solana stake a command acts on: the one whose context menu ran it (read again), else a
 * quick pick of the stakes (those whose `actions` list the action now, when one is given).
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
  const choices: StakeChoice[] = [];
  for (const account of accounts) {
    const [stakes, currency] = await Promise.all([client.listSolanaStakes(account.id), client.getCurrency(account.currency)]);
    for (const stake of stakes) if (options.action === undefined || stakeAllows(stake, options.action)) choices.push({ stake, account, currency });
  }
  if (choices.length === 0) throw new NothingToPickError(options.action === undefined ? "the workspace has no Solana stake" : `no Solana stake allows ${options.action} now`);
  const items = choices.map((choice) => {
    const state = choice.stake.blockchain_state;
    return {
      label: `${displayAmount(state.total_balance, choice.currency)} · ${state.status}`,
      description: labelText(choice.account.name, 40),
      detail: `validator ${labelText(state.validator_address, 64)} · stake ${labelText(choice.stake.uid, 64)}`,
      value: choice,
    };
  });
  return prompter.pick(options.title, items, "Choose the stake");
}
