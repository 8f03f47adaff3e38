import * as vscode from "vscode";
import { labelText } from "../../views/markdown-tooltip.js";
import type { Services } from "../../services.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { polkadotAccountFor } from "./polkadot-account.js";

/** The steps' title, translated when shown. */
const title = (): string => vscode.l10n.t("Polkadot Set Rewards Destination");
/** The destinations seen in the spec. */
const DESTINATIONS = ["Staked", "Stash"];

/** SETPAYEE: a new rewards destination (the same as the current one is blocked by the pre-flight rule). */
export const setPayee: CommandDefinition = {
  id: "custody.polkadot.setPayee",
  async run(services: Services, node) {
    const choice = await polkadotAccountFor(services, node, "polkadot_set_payee", stepTitle(title(), 1, 2));
    if (!choice) return;
    const current = choice.account.coin_fields.staking.rewards_destination;
    const payee = await services.prompter.pick(
      stepTitle(title(), 2, 2),
      DESTINATIONS.map((destination) => ({
        label: destination,
        description: destination.toLowerCase() === current.trim().toLowerCase() ? vscode.l10n.t("current destination") : undefined,
        value: destination,
      })),
      vscode.l10n.t("Currently {0}", labelText(current, 40)),
    );
    if (payee === undefined) return;
    await services.guard.run({ kind: "polkadot_set_payee", account: choice.account.id, payee });
  },
};
