import * as vscode from "vscode";
import { chooseValidator } from "../../input/pick-validator.js";
import type { Services } from "../../services.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { stakeForAction } from "./stake-action.js";

/** The steps' title, translated when shown. */
const title = (): string => vscode.l10n.t("Delegate a Solana Stake Again");

/** Delegates the stake's whole total_balance to a validator (only while its actions list delegate). */
export const delegateStake: CommandDefinition = {
  id: "custody.solana.delegateStake",
  async run(services: Services, node) {
    const choice = await stakeForAction(services, node, "solana_delegate_stake", "delegate", stepTitle(title(), 1, 2));
    if (!choice) return;
    const { client } = services.connection.require();
    const validator = await chooseValidator(client, services.prompter, choice.account.id, stepTitle(title(), 2, 2));
    if (validator === undefined) return;
    await services.guard.run({ kind: "solana_delegate_stake", account: choice.account.id, stake_uid: choice.stake.uid, validator });
  },
};
