import { describeAmount } from "@custody/shared";
import type { z } from "zod";
import { recordView } from "../../views/workspace-view.js";
import { BalanceView, polkadotBalancesView, unbondingText } from "../../views/account-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

export const getAccountBalance = defineTool({
  name: "get_account_balance",
  title: "Get an account's balances",
  description: "An account's balances, fresh: balance, available, the network's own (Polkadot bonded, unbonding dated; Solana staked).",
  toolset: "read",
  input: { account: AccountInput },
  output: toolOutput({ balance: BalanceView }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    const balance = await call.ctx.client.getAccountBalance(account.id, { signal: call.signal });
    const now = call.ctx.client.serviceNow();
    // staked_balance counts every stake, deactivated ones too (get_holdings tells them apart).
    const staked =
      balance.staked_balance === undefined
        ? ""
        : `, in stakes ${describeAmount(balance.staked_balance, currency)} (outside the balance, deactivated stakes included; get_holdings splits it)`;
    const bonded =
      balance.balances === undefined
        ? ""
        : `, bonded ${describeAmount(balance.balances.bonded, currency)} (inside the balance), ${unbondingText(balance.balances, currency, now)}`;
    const view = recordView(balance, currency) as z.infer<typeof BalanceView>;
    return {
      structured: { balance: balance.balances === undefined ? view : { ...view, balances: polkadotBalancesView(balance.balances, currency, now) } },
      text:
        `account ${account.id}: balance ${describeAmount(balance.balance, currency)}, available ` +
        `${describeAmount(balance.available_balance, currency)}${staked}${bonded}`,
    };
  },
});
