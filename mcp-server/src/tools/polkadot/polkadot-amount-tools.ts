import type { PolkadotAmountKind } from "@custody/shared";
import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

/** BONDEXTRA, UNBOND and REBOND differ only in their kind and description: an account, an amount in DOT or Planck, a note. */
function polkadotAmountTool(kind: PolkadotAmountKind, description: string) {
  return defineWriteTool({
    kind,
    description,
    input: { account: WriteFields.account, amount: WriteFields.amount, unit: NetworkUnitCode.Polkadot, note: WriteFields.note },
    on: "account",
    toRequest: (args, { account, currency }) => ({
      kind,
      account: account.id,
      amount: amountField(currency, args.amount, args.unit),
      note: noteInput(args.note),
    }),
  });
}

export const polkadotBondExtra = polkadotAmountTool("polkadot_bond_extra", "Bonds more of the available balance (BONDEXTRA). Dry run first.");
export const polkadotUnbond = polkadotAmountTool("polkadot_unbond", "Unbonds part of the bonded balance (UNBOND); withdrawable after 28 days. Dry run first.");
export const polkadotRebond = polkadotAmountTool("polkadot_rebond", "Bonds back unbonding or unbonded funds (REBOND). Dry run first.");
