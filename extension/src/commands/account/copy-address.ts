import * as vscode from "vscode";
import { chooseAccount } from "../../input/pick-account.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { copyExact } from "../common/copy-exact.js";

/** Copies an account's address, or a stake's stake-account address. */
export const copyAddress: CommandDefinition = {
  id: "custody.copyAddress",
  async run(services: Services, node) {
    const target = node?.target;
    let address: string | undefined;
    if (target?.kind === "solana_stake") address = target.stake.blockchain_state.pub_key;
    else if (target?.kind === "ethereum_stake") address = target.stake.contract_address;
    else {
      const { client } = services.connection.require();
      address = (await chooseAccount(client, services.prompter, target, { title: vscode.l10n.t("Custody: Copy Address") }))?.account.address;
    }
    if (address === undefined) return;
    await copyExact("address", address);
  },
};
