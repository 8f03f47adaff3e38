import type { GovernanceRule } from "@custody/shared";
import { forbidden } from "../domain-error.js";
import type { AccountRow } from "../../store/state-types.js";

/** The whitelist of a smart-contract rule; none when the rule carries no list. */
function whitelistOf(rule: GovernanceRule): string[] {
  const list: unknown = (rule as { whitelist?: unknown }).whitelist;
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === "string") : [];
}

/**
 * The contract "may be whitelisted in the account's smart-contract rule" (usage rule 3): a
 * non-empty whitelist restricts calls to the contracts it lists (403 otherwise); an empty or
 * absent one restricts nothing. Returns the whitelist.
 */
export function requireWhitelisted(account: AccountRow, rule: GovernanceRule, recipient: string): string[] {
  const whitelist = whitelistOf(rule);
  if (whitelist.length > 0 && !whitelist.some((entry) => entry.trim().toLowerCase() === recipient.toLowerCase())) {
    throw forbidden(
      "ContractNotWhitelisted",
      `recipient: contract ${recipient} is not on the whitelist of the smart-contract rule of account ` +
        `${JSON.stringify(account.name)} (${whitelist.length} contract(s) listed)`,
    );
  }
  return whitelist;
}
