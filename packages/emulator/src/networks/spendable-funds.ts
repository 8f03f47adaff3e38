import type { AccountRow } from "../store/state-types.js";

/** The ledger reached a state no operation may produce; the emulator has a bug. */
export class LedgerInvariantError extends Error {
  override readonly name = "LedgerInvariantError";
}

/**
 * What an account can spend: its free funds minus the staking lock (`frozen`, Polkadot) and what
 * its unfinished transactions hold (`in_flight`). Every reservation and lock is checked against
 * this before it is made, so it is never negative; if it were, it is thrown rather than shown as
 * 0, so the caller gets a 500 and the log and tests see the bug.
 */
export function spendableFunds(account: AccountRow, frozen: bigint, inFlight: bigint): bigint {
  const spendable = account.free - frozen - inFlight;
  if (spendable < 0n) {
    const committed = account.polkadot ? `frozen ${frozen} + in_flight ${inFlight}` : `in_flight ${inFlight}`;
    throw new LedgerInvariantError(`ledger invariant broken: account ${account.id} holds free ${account.free}, less than ${committed} (base units)`);
  }
  return spendable;
}
