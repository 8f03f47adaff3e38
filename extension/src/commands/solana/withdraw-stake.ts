import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { stakeForAction } from "./stake-action.js";

export const withdrawStake: CommandDefinition = {
  id: "custody.solana.withdrawStake",
  async run(services: Services, node) {
    const choice = await stakeForAction(services, node, "solana_withdraw_stake", "withdraw", "Custody: Withdraw a Solana Stake");
    if (!choice) return;
    await services.guard.run({ kind: "solana_withdraw_stake", account: choice.account.id, stake_uid: choice.stake.uid });
  },
};
