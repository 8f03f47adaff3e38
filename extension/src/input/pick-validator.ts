import * as vscode from "vscode";
import { SOLANA_ADDRESS, type CustodyClient, INPUT_LIMITS } from "@custody/shared";
import { addressValidator } from "./address-rule.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { Prompter } from "./prompter.js";

const ENTER = Symbol("enter another validator");

/** A validator address: one the account's stakes already use, or one typed (checked as a Solana address). */
export async function chooseValidator(
  client: CustodyClient,
  prompter: Prompter,
  accountId: number,
  title: string,
  exclude?: string,
): Promise<string | undefined> {
  const stakes = await client.listSolanaStakes(accountId);
  const known = [...new Set(stakes.map((stake) => stake.blockchain_state.validator_address))].filter(
    (address) => address !== exclude && SOLANA_ADDRESS.test(address),
  );
  let chosen: string | typeof ENTER | undefined = ENTER;
  if (known.length > 0) {
    chosen = await prompter.pick<string | typeof ENTER>(
      title,
      [
        ...known.map((address) => ({ label: labelText(address, 64), description: vscode.l10n.t("used by this account's stakes"), value: address })),
        { label: vscode.l10n.t("Enter another validator address..."), value: ENTER },
      ],
      vscode.l10n.t("Choose the validator"),
    );
  }
  if (chosen !== ENTER) return chosen;
  const typed = await prompter.input({
    title,
    prompt: vscode.l10n.t("Validator vote account address"),
    limit: { field: "validator", max: INPUT_LIMITS.address },
    validate: addressValidator("Solana", "validator"),
  });
  return typed?.trim();
}
