import { boundedText, INPUT_LIMITS } from "@custody/shared";
import { defineWriteTool } from "../write-tool.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotSetPayee = defineWriteTool({
  kind: "polkadot_set_payee",
  description: "Changes where staking rewards go (SETPAYEE): Staked or Stash. Dry run first.",
  input: { account: WriteFields.account, payee: boundedText(INPUT_LIMITS.payee).describe("Rewards destination, e.g. Staked or Stash"), note: WriteFields.note },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "polkadot_set_payee", account: account.id, payee: args.payee, note: noteInput(args.note) }),
});
