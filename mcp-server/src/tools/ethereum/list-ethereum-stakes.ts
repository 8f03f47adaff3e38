import { requireNetwork } from "@custody/shared";
import { z } from "zod";
import { EthereumStakeView, ethereumStakeLine } from "../../views/stake-view.js";
import { recordView } from "../../views/workspace-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { PageInfo, PageInput, toolOutput } from "../tool-output.js";

export const listEthereumStakes = defineTool({
  name: "list_ethereum_stakes",
  title: "List Ethereum stakes",
  description: "An Ethereum account's staking positions: provider, contract, amount and rewards (both units), status. One page.",
  toolset: "read",
  input: { account: AccountInput, ...PageInput },
  output: toolOutput({ stakes: z.array(EthereumStakeView), page_info: PageInfo }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    requireNetwork(account, "listing Ethereum stakes", "Ethereum");
    const page = await call.ctx.client.listEthereumStakes(account.id, { page: args.page, page_size: args.page_size }, { signal: call.signal });
    const stakes = page.edges.map((edge) => edge.node);
    return {
      structured: { stakes: stakes.map((stake) => recordView(stake, currency) as z.infer<typeof EthereumStakeView>), page_info: page.page_info },
      text: [
        `${stakes.length} of ${page.page_info.count} positions on account ${account.id}:`,
        ...stakes.map((stake) => ethereumStakeLine(stake, currency)),
      ].join("\n"),
    };
  },
});
