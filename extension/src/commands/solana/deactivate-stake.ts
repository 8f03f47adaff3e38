import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { stakeForAction } from "./stake-action.js";

export const deactivateStake: CommandDefinition = {
  id: "custody.solana.deactivateStake",
  async run(services: Services, node) {
    const choice = await stakeForAction(services, node, "solana_deactivate_stake", "deactivate", "Custody: Deactivate a Solana Stake");
    if (!choice) return;
    await services.guard.run({ kind: "solana_deactivate_stake", account: choice.account.id, stake_uid: choice.stake.uid });
  },
};
