import { AccountView, accountLine, accountView, governanceText } from "../../views/account-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

export const getAccount = defineTool({
  name: "get_account",
  title: "Get an account",
  description: "One account by id or name: balances (both units), network fields (Polkadot unbonding dated), governance rules.",
  toolset: "read",
  input: { account: AccountInput },
  output: toolOutput({ account: AccountView }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    const now = call.ctx.client.serviceNow();
    return { structured: { account: accountView(account, currency, now) }, text: `${accountLine(account, currency, now)}\n${governanceText(account)}` };
  },
});
