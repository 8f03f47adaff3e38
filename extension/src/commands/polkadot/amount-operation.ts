import { checkPolkadotOperation, displayUnit, type PolkadotBalances, type WriteKind } from "@custody/shared";
import { amountValidator, readAmount, amountLimit } from "../../input/amount-input.js";
import type { Services } from "../../services.js";
import { displayAmount } from "../../views/amount-text.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { polkadotAccountFor } from "./polkadot-account.js";

type AmountKind = Extract<WriteKind, "polkadot_bond_extra" | "polkadot_unbond" | "polkadot_rebond">;

const OPERATIONS: Record<AmountKind, { type: "BONDEXTRA" | "UNBOND" | "REBOND"; title: string; source: string; limit: (balances: PolkadotBalances) => bigint }> = {
  polkadot_bond_extra: { type: "BONDEXTRA", title: "Polkadot Bond Extra", source: "available", limit: (b) => b.available },
  polkadot_unbond: { type: "UNBOND", title: "Polkadot Unbond", source: "bonded", limit: (b) => b.bonded },
  polkadot_rebond: { type: "REBOND", title: "Polkadot Rebond", source: "unbonding and unbonded", limit: (b) => b.total_unbonding + b.total_unbonded },
};

/** BONDEXTRA, UNBOND and REBOND: an account and an amount, checked as typed against the balance the spec names. */
export function polkadotAmountCommand(id: string, kind: AmountKind): CommandDefinition {
  const operation = OPERATIONS[kind];
  return {
    id,
    async run(services: Services, node) {
      const choice = await polkadotAccountFor(services, node, kind, stepTitle(operation.title, 1, 2));
      if (!choice) return;
      const { account, currency } = choice;
      const { balances, staking } = account.coin_fields;
      const amountText = await services.prompter.input({
        title: stepTitle(operation.title, 2, 2),
        limit: amountLimit("amount"),
        prompt: `Amount in ${displayUnit(currency).code} (or with a unit code); ${displayAmount(operation.limit(balances), currency)} ${operation.source}`,
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
