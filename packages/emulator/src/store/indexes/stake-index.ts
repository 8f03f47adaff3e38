import type { EthereumStakeRow, SolanaStakeRow } from "../state-types.js";
import { KeyMultimap } from "./key-multimap.js";

/** Stakes by account, and the Solana stakes still open (not withdrawn): what an epoch start works on. */
export class StakeIndex {
  readonly #solanaByAccount = new KeyMultimap<number, string>();
  readonly #openSolana = new Set<string>();
  readonly #ethereumByAccount = new KeyMultimap<number, string>();

  updateSolana(before: SolanaStakeRow | undefined, after: SolanaStakeRow | undefined): void {
    if (before) {
      this.#solanaByAccount.delete(before.account_id, before.uid);
      this.#openSolana.delete(before.uid);
    }
    if (after) {
      this.#solanaByAccount.add(after.account_id, after.uid);
      if (after.closed_on_ms === null) this.#openSolana.add(after.uid);
    }
  }

  updateEthereum(before: EthereumStakeRow | undefined, after: EthereumStakeRow | undefined): void {
    if (before) this.#ethereumByAccount.delete(before.account_id, before.id);
    if (after) this.#ethereumByAccount.add(after.account_id, after.id);
  }

  /** Uids of the account's Solana stakes, withdrawn ones included. */
  solanaOf(accountId: number): ReadonlySet<string> {
    return this.#solanaByAccount.get(accountId);
  }

  /** Uids of the Solana stakes not withdrawn. */
  openSolana(): ReadonlySet<string> {
    return this.#openSolana;
  }

  ethereumOf(accountId: number): ReadonlySet<string> {
    return this.#ethereumByAccount.get(accountId);
  }
}
