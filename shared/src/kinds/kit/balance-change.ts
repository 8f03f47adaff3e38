/**
 * A balance a write draws on or adds to: what it is now and what it will be once the write (and
 * the unfinished transactions drawing on the same balance, when counted) is broadcast. Shown by
 * every dry run, so a condition on a balance ("keep 3,000 bonded") can be read off it.
 */
export interface BalanceChange {
  /** As the service names it: available_balance, balances.bonded, stake total_balance... */
  name: string;
  before: bigint;
  after: bigint;
}

/** A balance moved by `delta` (negative: drawn on), the unfinished transactions on it included. */
export function balanceChange(name: string, before: bigint, delta: bigint): BalanceChange {
  return { name, before, after: before + delta };
}
