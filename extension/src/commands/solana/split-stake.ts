import * as vscode from "vscode";
import { checkSolanaStakeAction, displayUnit, type WriteKind } from "@custody/shared";
import { amountValidator, readAmount, amountLimit } from "../../input/amount-input.js";
import type { Services } from "../../services.js";
import { displayAmount } from "../../views/amount-text.js";
import type { TreeNode } from "../../views/tree-node.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { stakeForAction } from "./stake-action.js";

async function split(
  services: Services,
  node: TreeNode | undefined,
  kind: Extract<WriteKind, "solana_split_stake" | "solana_split_deactivate_stake">,
  title: string,
): Promise<void> {
  const action = kind === "solana_split_stake" ? "split" : "split_deactivate";
  const choice = await stakeForAction(services, node, kind, action, stepTitle(title, 1, 2));
  if (!choice) return;
  const { stake, currency } = choice;
  const amountText = await services.prompter.input({
    title: stepTitle(title, 2, 2),
    limit: amountLimit("amount"),
    prompt: vscode.l10n.t(
      "Amount to split off into a new stake, in {0}; the stake holds {1}",
      displayUnit(currency).code,
      displayAmount(stake.blockchain_state.total_balance, currency),
    ),
    validate: amountValidator(currency, "amount", (amount) => checkSolanaStakeAction(action, stake, { amount })),
  });
  if (amountText === undefined) return;
  await services.guard.run({ kind, account: choice.account.id, stake_uid: stake.uid, amount: readAmount(amountText, currency, "amount") });
}

export const splitStake: CommandDefinition = {
  id: "custody.solana.splitStake",
  run: (services, node) => split(services, node, "solana_split_stake", vscode.l10n.t("Split a Solana Stake")),
};

export const splitDeactivateStake: CommandDefinition = {
  id: "custody.solana.splitDeactivateStake",
  run: (services, node) => split(services, node, "solana_split_deactivate_stake", vscode.l10n.t("Split and Deactivate a Solana Stake")),
};
