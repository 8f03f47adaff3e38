import type { PersonOnRecord } from "../identity/person.js";
import type { FormattedAmount } from "../units/format-units.js";
import type { WriteKind, WriteRequest } from "../kinds/registry.js";
import type { Destination, WriteDraft, WriteIdentity } from "../kinds/kit/write-spec.js";

/**
 * A write prepared on fresh data: the exact call, every check with its finding, the amounts in
 * base and display units, and what governance is expected to do. Nothing has been sent.
 */
export interface PlannedWrite extends Pick<
  WriteDraft,
  "account" | "currency" | "call" | "checks" | "governance" | "proposed_max_fees" | "summary" | "stake" | "transaction" | "send" | "lostAnswer"
> {
  kind: WriteKind;
  identity: WriteIdentity;
  operator: string;
  /** The signed-in person the write is prepared for (null: a single user): named on its records and in its dry run. */
  person: PersonOnRecord | null;
  request: WriteRequest;
  /** Travels in the note (where the request has one) so an ambiguous outcome can be looked up. */
  correlation_id: string;
  amounts: Record<string, FormattedAmount>;
  /** Where it sends what it moves: recipient, validator, contract, stake, payee or the balance it goes into. */
  destinations: Destination[];
  /** The balances the write draws on or adds to, before and after, in both units. */
  balances: { name: string; before: FormattedAmount; after: FormattedAmount }[];
  /** The network fee the service estimates, or why it is not known. */
  fee: { estimated: FormattedAmount } | { unknown: string };
  /** Moments the write leads to, ISO 8601 (withdrawable_at). */
  dates: Record<string, string>;
  /** The base-unit quantity the write moves or commits, for the local policy's limits. */
  policy_amount: bigint | undefined;
}
