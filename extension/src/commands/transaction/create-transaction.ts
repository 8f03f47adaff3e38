import * as vscode from "vscode";
import { accountNetwork, checkSend, displayUnit, type Speed, INPUT_LIMITS, noteTextProblem } from "@custody/shared";
import { addressValidator } from "../../input/address-rule.js";
import { amountValidator, readAmount, amountLimit } from "../../input/amount-input.js";
import { chooseAccount } from "../../input/pick-account.js";
import { displayAmount } from "../../views/amount-text.js";
import type { Services } from "../../services.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { permitted } from "../permission-check.js";

/** The steps' title, translated when shown. */
const title = (): string => vscode.l10n.t("Create Transaction");
const STEPS = 6;

/** A send, step by step: account, recipient, amount in display units, max fees, speed, note. */
export const createTransaction: CommandDefinition = {
  id: "custody.createTransaction",
  async run(services: Services, node) {
    if (!permitted(services, "send")) return;
    const { client } = services.connection.require();
    const { prompter } = services;
    const choice = await chooseAccount(client, prompter, node?.target, { title: stepTitle(title(), 1, STEPS) });
    if (!choice) return;
    const { account, currency } = choice;
    const unit = displayUnit(currency).code;
    const recipient = await prompter.input({
      title: stepTitle(title(), 2, STEPS),
      limit: { field: "recipient", max: INPUT_LIMITS.address },
      prompt: vscode.l10n.t("Recipient address on {0}", accountNetwork(account) ?? account.type),
      validate: addressValidator(accountNetwork(account), "recipient"),
    });
    if (recipient === undefined) return;
    const amountText = await prompter.input({
      title: stepTitle(title(), 3, STEPS),
      limit: amountLimit("amount"),
      prompt: vscode.l10n.t(
        'Amount in {0} (or with a unit code, e.g. "1.5 {1}"); {2} available',
        unit,
        unit,
        displayAmount(account.available_balance, currency),
      ),
      validate: amountValidator(currency, "amount", (amount) => checkSend({ amount, maxFees: 0n, availableBalance: account.available_balance })),
    });
    if (amountText === undefined) return;
    const amount = readAmount(amountText, currency, "amount");
    const feesText = await prompter.input({
      title: stepTitle(title(), 4, STEPS),
      limit: amountLimit("max_fees"),
      prompt: vscode.l10n.t("Max fees in {0}; leave empty to propose them from the service's fee estimate", unit),
      validate: (text) =>
        text.trim() === ""
          ? undefined
          : amountValidator(currency, "max_fees", (fees) => checkSend({ amount, maxFees: fees, availableBalance: account.available_balance }))(text),
    });
    if (feesText === undefined) return;
    const speed = await prompter.pick<Speed>(stepTitle(title(), 5, STEPS), [
      { label: "NORMAL", description: vscode.l10n.t("default"), value: "NORMAL" },
      { label: "FAST", value: "FAST" },
      { label: "SLOW", value: "SLOW" },
    ]);
    if (speed === undefined) return;
    const note = await prompter.input({
      title: stepTitle(title(), 6, STEPS),
      prompt: vscode.l10n.t("Note title (optional; a reference is added to the note so the transaction can always be found)"),
      limit: { field: "note", max: INPUT_LIMITS.note },
      // Refused here, under the field, rather than after five steps by the write's own check.
      validate: (text) => {
        const problem = noteTextProblem(text.trim());
        return problem === undefined ? undefined : `note: ${problem}`;
      },
    });
    if (note === undefined) return;
    await services.guard.run({
      kind: "send",
      account: account.id,
      recipient: recipient.trim(),
      amount,
      ...(feesText.trim() === "" ? {} : { max_fees: readAmount(feesText, currency, "max_fees") }),
      speed,
      ...(note.trim() === "" ? {} : { note: { title: note.trim(), content: "" } }),
    });
  },
};
