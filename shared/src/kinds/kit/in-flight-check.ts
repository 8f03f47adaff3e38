import { checkInFlight, inFlightNotCounted, type InFlightInput, type InFlightTransaction } from "./in-flight-rule.js";
import type { Finding } from "../../schemas/finding.js";
import type { Transaction } from "../../schemas/transaction.js";
import type { UnfinishedListing } from "../../holdings/unfinished-transactions.js";

export interface InFlightSpec extends Omit<InFlightInput, "inFlight"> {
  /** What an unfinished transaction will take from the balance when broadcast; undefined when it draws on another. */
  draws(tx: Transaction): bigint | undefined;
}

/** The write against its balance with the unfinished transactions counted, or a warning that they could not be. */
export function inFlightFinding(listing: UnfinishedListing, spec: InFlightSpec): Finding {
  if ("failure" in listing) return inFlightNotCounted(spec.balanceName, listing.failure);
  const inFlight: InFlightTransaction[] = [];
  for (const tx of listing.transactions) {
    const draws = spec.draws(tx);
    if (draws !== undefined) inFlight.push({ id: tx.id, type: tx.type, status: tx.status, draws });
  }
  const { draws: _draws, ...input } = spec;
  return checkInFlight({ ...input, inFlight });
}

/** What the listed unfinished transactions will draw from the balance once broadcast; 0 when they could not be listed (a warning says so). */
export function inFlightDraws(listing: UnfinishedListing, draws: (tx: Transaction) => bigint | undefined): bigint {
  if ("failure" in listing) return 0n;
  return listing.transactions.reduce((sum, tx) => sum + (draws(tx) ?? 0n), 0n);
}
