import type { CustodyClient } from "../client/custody-client.js";
import { localText } from "../l10n/translate.js";
import { accountDirectoryOf } from "../kinds/kit/account-directory.js";
import type { PlannedWrite } from "./planned-write.js";
import { differingFields, digestFields, requestDigest } from "./request-digest.js";
import { refusal, type Refusal, type RoadCheck } from "./road-check.js";
import type { SealedIntent, Stage } from "./road-types.js";

/** A confirmed request planned again on fresh data, and the dry run the person saw. */
export interface PlannedAgain {
  plan: PlannedWrite;
  sealed: SealedIntent;
  stage: Stage;
  client: CustodyClient;
  signal?: AbortSignal | undefined;
}

/** The plan still targets the account (and transaction) the dry run did. */
export const sameTarget = ({ plan, sealed }: PlannedAgain): Refusal | null => {
  if (plan.account.id === sealed.account_id && (plan.transaction?.id ?? null) === sealed.transaction_id) return null;
  const dryRun =
    sealed.transaction_id === null
      ? localText("account {0}", sealed.account_id)
      : localText("account {0} and transaction {1}", sealed.account_id, sealed.transaction_id);
  return refusal(
    "binding_changed",
    localText(
      "the dry run was for {0}, but this confirmation names account {1} ({2}): the arguments name another account, " +
        "or an account was renamed or took the name since. Nothing was sent: run a new dry run and check the account",
      dryRun,
      plan.account.id,
      plan.account.name,
    ),
  );
};

/**
 * Right before the POST, the account name the body sends still reaches the account the person saw
 * alone. Read from a fresh listing of every account, never from the name directory's hints: a
 * second account that took the name a moment ago must be seen.
 */
export const nameStillBound: RoadCheck<PlannedAgain> = async ({ plan, stage, client, signal }) => {
  const body = plan.call.body;
  const named = body !== null && typeof body === "object" && "account_name" in body && typeof body.account_name === "string" ? body.account_name : null;
  if (stage !== "send_check" || named === null) return null;
  const holders = (await accountDirectoryOf(client).refresh({ signal })).filter((account) => account.name === named).map((account) => account.id);
  if (holders.length === 1 && holders[0] === plan.account.id) return null;
  const now =
    holders.length === 0
      ? localText("no account")
      : holders.length > 1
        ? localText("accounts {0}", holders.join(", "))
        : localText("account {0}", holders.join(", "));
  return refusal(
    "binding_changed",
    localText(
      "the request names its account by the name the service resolves, and that name now belongs to {0}, " +
        "not to account {1} alone as the person saw it. Nothing was sent",
      now,
      plan.account.id,
    ),
  );
};

/** The plan is the one the person saw: the same digest, or the fields that differ named. */
export const sameDigest = ({ plan, sealed }: PlannedAgain): Refusal | null => {
  if (requestDigest(plan) === sealed.digest) return null;
  const differs = sealed.fields === undefined ? [] : differingFields(sealed.fields, digestFields(plan));
  const which = differs.length === 0 ? "" : localText(" in {0}", differs.join(", "));
  return refusal(
    "digest_mismatch",
    localText(
      "the request differs from the dry run{0} (the arguments, the account's name, the " +
        "transaction or the fees changed since). Nothing was sent: run a new dry run",
      which,
    ),
  );
};

/** What a confirmation's plan is held to, in order, before its findings are looked at. */
export const PLAN_CHECKS: readonly RoadCheck<PlannedAgain>[] = [sameTarget, nameStillBound, sameDigest];
