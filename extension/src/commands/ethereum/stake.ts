import * as vscode from "vscode";
import { checkSend, displayUnit, HexString, INPUT_LIMITS } from "@custody/shared";
import { addressValidator } from "../../input/address-rule.js";
import { amountValidator, readAmount, amountLimit } from "../../input/amount-input.js";
import { chooseAccount } from "../../input/pick-account.js";
import type { Services } from "../../services.js";
import { displayAmount } from "../../views/amount-text.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { permitted } from "../permission-check.js";

/** The steps' title, translated when shown. */
const title = (): string => vscode.l10n.t("Ethereum Stake");
const STEPS = 5;
const ENTER = Symbol("enter another contract");

/** Staking through a provider's contract: amount, contract (from the whitelist or typed), call data, max fees. */
export const ethereumStake: CommandDefinition = {
  id: "custody.ethereum.stake",
  async run(services: Services, node) {
    if (!permitted(services, "ethereum_stake")) return;
    const { client } = services.connection.require();
    const { prompter } = services;
    const choice = await chooseAccount(client, prompter, node?.target, { title: stepTitle(title(), 1, STEPS), network: "Ethereum" });
    if (!choice) return;
    const { account, currency } = choice;
    const unit = displayUnit(currency).code;
    const amountText = await prompter.input({
      title: stepTitle(title(), 2, STEPS),
      limit: amountLimit("amount"),
      prompt: vscode.l10n.t(
        "Amount to stake in {0}; the account must hold at least 32 {1} (it holds {2})",
        unit,
        unit,
        displayAmount(account.balance, currency),
      ),
      validate: amountValidator(currency, "amount", (amount) => checkSend({ amount, maxFees: 0n, availableBalance: account.available_balance })),
    });
    if (amountText === undefined) return;
    const whitelist = account.governance_rules?.smart_contract?.whitelist ?? [];
    let contract: string | typeof ENTER | undefined = ENTER;
    if (whitelist.length > 0) {
      contract = await prompter.pick<string | typeof ENTER>(stepTitle(title(), 3, STEPS), [
        ...whitelist.map((address) => ({ label: address, description: vscode.l10n.t("whitelisted in the smart-contract rule"), value: address })),
        { label: vscode.l10n.t("Enter another contract address..."), value: ENTER },
      ]);
    }
    if (contract === ENTER) {
      contract = (
        await prompter.input({
          title: stepTitle(title(), 3, STEPS),
          limit: { field: "contract", max: INPUT_LIMITS.address },
          prompt: vscode.l10n.t("Staking provider's contract address"),
          validate: addressValidator("Ethereum", "contract"),
        })
      )?.trim();
    }
    if (contract === undefined) return;
    const contractData = await prompter.input({
      title: stepTitle(title(), 4, STEPS),
      limit: { field: "contract_data", max: INPUT_LIMITS.contract_data },
      prompt: vscode.l10n.t("Call data for the provider's deposit function (hex, with its 4-byte selector)"),
      validate: (text) =>
        text.trim() !== "" && HexString.safeParse(text.trim()).success
          ? undefined
          : "contract_data: must be hex-encoded bytes: an optional 0x then an even number of hex digits",
    });
    if (contractData === undefined) return;
    const amount = readAmount(amountText, currency, "amount");
    const feesText = await prompter.input({
      title: stepTitle(title(), 5, STEPS),
      limit: amountLimit("max_fees"),
      prompt: vscode.l10n.t("Max fees in {0}; leave empty to propose them from the service's fee estimate", unit),
      validate: (text) =>
        text.trim() === ""
          ? undefined
          : amountValidator(currency, "max_fees", (fees) => checkSend({ amount, maxFees: fees, availableBalance: account.available_balance }))(text),
    });
    if (feesText === undefined) return;
    await services.guard.run({
      kind: "ethereum_stake",
      account: account.id,
      amount,
      contract,
      contract_data: contractData.trim(),
      speed: "NORMAL",
      ...(feesText.trim() === "" ? {} : { max_fees: readAmount(feesText, currency, "max_fees") }),
    });
  },
};
