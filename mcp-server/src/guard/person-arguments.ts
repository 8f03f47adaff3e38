import { keptRequestDifferences, SealedIntent, type GuardStore, type WriteRequest } from "@custody/shared";

/**
 * Why a person-mode call with a dry run's reference cannot stand for that dry run, or null: its arguments ask for
 * another write, while the reference confirms only the one the person is shown (a client that cannot ask them would
 * otherwise be told "waiting", then "submitted", of a write the model did not ask for). Read from the intent the store
 * keeps while it is open; a call naming the same write otherwise (the amount in another unit, the account by id) passes.
 */
export async function otherArgumentsProblem(store: GuardStore, nonce: string, request: WriteRequest, accountId: number | null): Promise<string | null> {
  const standing = await store.lookUpIntent(nonce);
  if (standing.outcome !== "open") return null;
  const sealed = SealedIntent.parse(JSON.parse(standing.sealed));
  const differs = sealed.request === undefined ? null : keptRequestDifferences(sealed.request, request);
  if (differs === null) return null;
  if (accountId !== null && accountId !== sealed.account_id) differs.unshift("account");
  if (differs.length === 0) return null;
  return (
    `${differs.join(", ")}: differs from the dry run this reference names, which is the only write it confirms ` +
    "(as the person is shown it). Nothing was sent: call again with the dry run's own arguments, or run a new dry run"
  );
}
