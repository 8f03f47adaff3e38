import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { polkadotAccountFor } from "./polkadot-account.js";

/** WITHDRAWUNBONDED: moves the unbonded funds to available (blocked when there are none). */
export const withdrawUnbonded: CommandDefinition = {
  id: "custody.polkadot.withdrawUnbonded",
  async run(services: Services, node) {
    const choice = await polkadotAccountFor(services, node, "polkadot_withdraw_unbonded", "Custody: Polkadot Withdraw Unbonded");
    if (!choice) return;
    await services.guard.run({ kind: "polkadot_withdraw_unbonded", account: choice.account.id });
  },
};
