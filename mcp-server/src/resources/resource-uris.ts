/** The resources whose changes are watched: an account (its balances) and a transaction (its status). */
export interface WatchedResource {
  kind: "account" | "transaction";
  id: number;
}

const WATCHED = /^custody:\/\/(accounts|transactions)\/([1-9][0-9]{0,15})$/;

export const accountUri = (id: number): string => `custody://accounts/${id}`;
export const transactionUri = (id: number): string => `custody://transactions/${id}`;

/** The account or transaction a URI names, or null for any other URI (a stake list, another server's). */
export function watchedResource(uri: string): WatchedResource | null {
  const match = WATCHED.exec(uri);
  if (match === null) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  return { kind: match[1] === "accounts" ? "account" : "transaction", id };
}
