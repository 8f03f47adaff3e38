import * as vscode from "vscode";
import {
  checkPolkadotOperation,
  displayUnit,
  POLKADOT_AMOUNT_OPERATIONS,
  POLKADOT_BALANCE_NAMES,
  polkadotBalanceValue,
  writeIdentity,
  type PolkadotAmountKind,
} from "@custody/shared";
import { amountValidator, readAmount, amountLimit } from "../../input/amount-input.js";
import type { Services } from "../../services.js";
import { translate } from "../../output/translate.js";
import { displayAmount } from "../../views/amount-text.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { polkadotAccountFor } from "./polkadot-account.js";

/** BONDEXTRA, UNBOND and REBOND: an account and an amount, checked as typed against the balance the spec names. */
export function polkadotAmountCommand(id: string, kind: PolkadotAmountKind): CommandDefinition {
  const operation = POLKADOT_AMOUNT_OPERATIONS[kind];
  const title = translate(writeIdentity(kind).title);
  return {
    id,
    async run(services: Services, node) {
      const choice = await polkadotAccountFor(services, node, kind, stepTitle(title, 1, 2));
      if (!choice) return;
      const { account, currency } = choice;
      const { balances, staking } = account.coin_fields;
      const amountText = await services.prompter.input({
        title: stepTitle(title, 2, 2),
        limit: amountLimit("amount"),
        prompt: vscode.l10n.t(
          "Amount in {0} (or with a unit code); {1} in {2}",
          displayUnit(currency).code,
          displayAmount(polkadotBalanceValue(operation.draws, balances), currency),
          POLKADOT_BALANCE_NAMES[operation.draws],
        ),
        validate: amountValidator(currency, "amount", (amount) => checkPolkadotOperation({ type: operation.type, amount }, balances, staking)),
      });
      if (amountText === undefined) return;
      await services.guard.run({ kind, account: account.id, amount: readAmount(amountText, currency, "amount") });
    },
  };
}

export const bondExtra = polkadotAmountCommand("custody.polkadot.bondExtra", "polkadot_bond_extra");
export const unbond = polkadotAmountCommand("custody.polkadot.unbond", "polkadot_unbond");
export const rebond = polkadotAmountCommand("custody.polkadot.rebond", "polkadot_rebond");
