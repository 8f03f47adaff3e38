import type * as vscode from "vscode";
import type { Account, Currency, EthereumStake, SolanaStake, Transaction } from "@custody/shared";

/** What a node stands for, so a command run from its context menu knows its target. */
export type NodeTarget =
  | { kind: "account"; account: Account; currency: Currency }
  | { kind: "solana_stake"; stake: SolanaStake; account: Account; currency: Currency }
  | { kind: "ethereum_stake"; stake: EthereumStake; currency: Currency }
  | { kind: "transaction"; transaction: Transaction; currency: Currency };

/** A node of one of the three trees: it draws itself and lists its children. */
export abstract class TreeNode {
  readonly target: NodeTarget | undefined = undefined;

  abstract treeItem(): vscode.TreeItem;

  children(): Promise<TreeNode[]> {
    return Promise.resolve([]);
  }
}
