import * as vscode from "vscode";
import { toBaseUnits, parseUnits, type Currency, type Finding, INPUT_LIMITS, errorMessage, findingMessage } from "@custody/shared";
import { bothAmounts } from "../views/amount-text.js";
import { translate } from "../output/translate.js";

/**
 * An amount as a person types it: in the display unit ("1.5"), or with the code of any unit of
 * the currency ("1.5 SOL", "1500000000 lamport"). Exact, through shared's unit math; an
 * AmountError names the field and the rule.
 */
export function readAmount(text: string, currency: Currency, field: string): bigint {
  const parts = text.trim().split(/\s+/);
  if (parts.length === 2) {
    const [amount, unit] = parts as [string, string];
    return toBaseUnits({ amount, unit }, currency, field);
  }
  return parseUnits(text, currency, undefined, field);
}

/** An amount box's field and limit: an amount, a space and a unit code ("1.5 SOL"). */
export function amountLimit(field: string): { field: string; max: number } {
  return { field, max: INPUT_LIMITS.amount + 1 + INPUT_LIMITS.unit };
}

/** Pre-flight findings for an amount being typed; block and warn findings are shown at once. */
export type AmountCheck = (amount: bigint) => readonly Finding[];

/**
 * validateInput for an amount: a malformed amount or a blocking rule stops Enter; a warning
 * shows but lets it through; otherwise the amount is echoed in both units.
 */
export function amountValidator(
  currency: Currency,
  field: string,
  check?: AmountCheck,
): (text: string) => string | vscode.InputBoxValidationMessage | undefined {
  return (text) => {
    let amount: bigint;
    try {
      amount = readAmount(text, currency, field);
    } catch (error) {
      return errorMessage(error, undefined, translate);
    }
    const findings = check?.(amount) ?? [];
    const block = findings.find((item) => item.severity === "block");
    if (block) return findingMessage(block, translate);
    const warn = findings.find((item) => item.severity === "warn");
    if (warn) return { message: `${bothAmounts(amount, currency)}: ${findingMessage(warn, translate)}`, severity: vscode.InputBoxValidationSeverity.Warning };
    return { message: `= ${bothAmounts(amount, currency)}`, severity: vscode.InputBoxValidationSeverity.Info };
  };
}
