import type { TableName, Tables } from "./state-types.js";

/** One change of a commit as it was applied: the row before and after (undefined when absent). */
export type AppliedChange = {
  [K in TableName]: { table: K; key: string; before: Tables[K] | undefined; after: Tables[K] | undefined };
}[TableName];

/** Told of every commit's changes once they are applied to the tables. */
export type CommitListener = (changes: readonly AppliedChange[]) => void;
