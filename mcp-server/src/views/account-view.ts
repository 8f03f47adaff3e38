import { delimitUntrusted, describeAmount, formatAmount, isPolkadotAccount, sanitizeUntrustedText, type Account, type Currency } from "@custody/shared";

/** The fields of an account a list shows, amounts in both units. */
export function accountSummary(account: Account, currency: Currency): Record<string, unknown> {
  return {
    id: account.id,
    name: sanitizeUntrustedText(account.name),
    type: sanitizeUntrustedText(account.type),
    currency: account.currency,
    address: sanitizeUntrustedText(account.address),
    balance: formatAmount(account.balance, currency),
    available_balance: formatAmount(account.available_balance, currency),
  };
}

/** One line of text: id, delimited name, balance and available balance; a Polkadot account's staking balances too. */
export function accountLine(account: Account, currency: Currency): string {
  const line = `account ${account.id} ${delimitUntrusted("name", account.name)} (${account.currency}): balance ${describeAmount(account.balance, currency)}, available ${describeAmount(account.available_balance, currency)}`;
  if (!isPolkadotAccount(account)) return line;
  const { bonded, total_unbonding, total_unbonded } = account.coin_fields.balances;
  return `${line}, bonded ${describeAmount(bonded, currency)}, unbonding ${describeAmount(total_unbonding, currency)}, unbonded ${describeAmount(total_unbonded, currency)}`;
}
