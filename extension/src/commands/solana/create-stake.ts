import * as vscode from "vscode";
import { checkSolanaCreateStake, displayUnit, SOLANA_STAKE_RENT_EXEMPT_RESERVE } from "@custody/shared";
import { amountValidator, readAmount, amountLimit } from "../../input/amount-input.js";
import { chooseAccount } from "../../input/pick-account.js";
import { chooseValidator } from "../../input/pick-validator.js";
import type { Services } from "../../services.js";
import { displayAmount } from "../../views/amount-text.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { permitted } from "../permission-check.js";

/** The steps' title, translated when shown. */
const title = (): string => vscode.l10n.t("Create and Delegate a Solana Stake");

export const createStake: CommandDefinition = {
  id: "custody.solana.createStake",
  async run(services: Services, node) {
    if (!permitted(services, "solana_create_stake")) return;
    const { client } = services.connection.require();
    const choice = await chooseAccount(client, services.prompter, node?.target, { title: stepTitle(title(), 1, 3), network: "Solana" });
    if (!choice) return;
    const { account, currency } = choice;
    const unit = displayUnit(currency).code;
    const amountText = await services.prompter.input({
      title: stepTitle(title(), 2, 3),
      limit: amountLimit("amount"),
      prompt: vscode.l10n.t("Amount to stake in {0} (or with a unit code); {1} available", unit, displayAmount(account.available_balance, currency)),
      validate: amountValidator(currency, "amount", (amount) =>
        checkSolanaCreateStake({ amount, availableBalance: account.available_balance, rentExemptReserve: SOLANA_STAKE_RENT_EXEMPT_RESERVE }),
      ),
    });
    if (amountText === undefined) return;
    const validator = await chooseValidator(client, services.prompter, account.id, stepTitle(title(), 3, 3));
    if (validator === undefined) return;
    await services.guard.run({ kind: "solana_create_stake", account: account.id, amount: readAmount(amountText, currency, "amount"), validator });
  },
};
