import type { AppliedChange } from "../applied-change.js";
import type { TableMaps } from "../state-types.js";
import { AccountIndex } from "./account-index.js";
import { StakeIndex } from "./stake-index.js";
import { TransactionIndex } from "./transaction-index.js";

/**
 * The secondary indexes of the committed state, kept in step with every commit, so that no
 * request has to scan a whole table: accounts by name and address, transactions by account,
 * status and notes, stakes by account.
 */
export class StateIndexes {
  readonly accounts = new AccountIndex();
  readonly transactions = new TransactionIndex();
  readonly stakes = new StakeIndex();

  static build(tables: TableMaps): StateIndexes {
    const indexes = new StateIndexes();
    for (const row of tables.accounts.values()) indexes.accounts.update(undefined, row);
    for (const row of tables.transactions.values()) indexes.transactions.update(undefined, row);
    for (const row of tables.solana_stakes.values()) indexes.stakes.updateSolana(undefined, row);
    for (const row of tables.ethereum_stakes.values()) indexes.stakes.updateEthereum(undefined, row);
    return indexes;
  }

  apply(changes: readonly AppliedChange[]): void {
    for (const change of changes) {
      switch (change.table) {
        case "accounts":
          this.accounts.update(change.before, change.after);
          break;
        case "transactions":
          this.transactions.update(change.before, change.after);
          break;
        case "solana_stakes":
          this.stakes.updateSolana(change.before, change.after);
          break;
        case "ethereum_stakes":
          this.stakes.updateEthereum(change.before, change.after);
          break;
        default:
          break;
      }
    }
  }
}
