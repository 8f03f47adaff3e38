import { boundedText, epochClockOf, givenStake, INPUT_LIMITS, requireNetwork } from "@custody/shared";
import { SolanaStakeView, solanaStakeLine, solanaStakeView } from "../../views/stake-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

export const StakeUidInput = boundedText(INPUT_LIMITS.stake_uid).describe("Stake uid, from list_solana_stakes");

export const getSolanaStake = defineTool({
  name: "get_solana_stake",
  title: "Get a Solana stake",
  description: "One Solana stake, fresh: state, epochs, balances (both units), validator, actions allowed now, when withdrawable.",
  toolset: "read",
  input: { account: AccountInput, stake_uid: StakeUidInput },
  output: toolOutput({ stake: SolanaStakeView }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    requireNetwork(account, "reading a Solana stake", "Solana");
    const stake = await givenStake(call.ctx.client, account.id, args.stake_uid, { signal: call.signal });
    // The account's other stakes tell when its epochs start.
    const { clock } = await epochClockOf(call.ctx, account.id);
    return { structured: { stake: solanaStakeView(stake, currency, clock) }, text: solanaStakeLine(stake, currency, clock) };
  },
});
