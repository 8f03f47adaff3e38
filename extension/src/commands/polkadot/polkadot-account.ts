import * as vscode from "vscode";
import { isPolkadotAccount, type Account, type Currency, type PolkadotCoinFields, type WriteKind } from "@custody/shared";
import { chooseAccount } from "../../input/pick-account.js";
import type { Services } from "../../services.js";
import type { TreeNode } from "../../views/tree-node.js";
import { permitted } from "../permission-check.js";

export interface PolkadotChoice {
  account: Account & { coin_fields: PolkadotCoinFields };
  currency: Currency;
}

/** The Polkadot account an operation applies to, read fresh, after the policy allowed the operation at all. */
export async function polkadotAccountFor(services: Services, node: TreeNode | undefined, kind: WriteKind, title: string): Promise<PolkadotChoice | undefined> {
  if (!permitted(services, kind)) return undefined;
  const { client } = services.connection.require();
  const choice = await chooseAccount(client, services.prompter, node?.target, { title, network: "Polkadot" });
  if (!choice) return undefined;
  if (!isPolkadotAccount(choice.account)) throw new Error(vscode.l10n.t("account {0} reports no Polkadot balances", choice.account.name));
  return { account: choice.account, currency: choice.currency };
}
