import type { CustodyClient } from "../client/custody-client.js";
import { localText, renderText, type LocalText } from "../l10n/translate.js";
import { carriesReference } from "../kinds/kit/correlation-reference.js";
import { timestampToDate } from "../schemas/primitives.js";
import type { Transaction } from "../schemas/transaction.js";
import type { PlannedWrite } from "./planned-write.js";
import { identicalInWorkspace } from "./workspace-history.js";

/** The service's clock is known to the second: a transaction created within this of the last check may have been read by it, or not. */
const CLOCK_GRAIN_MS = 1_000;

/** An identical write of the same operator, made by another store in the moment between this write's last check and its POST. */
export interface RacedWrite {
  /** The other identical transactions of this operator created since the last check, newest first. */
  transaction_ids: number[];
  /** What the person is told: both transactions, which one is the known duplicate, and what to do; in English. */
  message: string;
  /** The same as its template and values, for a surface that shows it in the person's language. */
  text: LocalText;
}

/**
 * Right after a POST that created `created`: the account's window read again for an identical
 * write of this operator created since this write's last check (`checkedAt`, the service's clock)
 * by another store, process or machine. The service offers no idempotency key (spec-decisions),
 * so two stores that checked in the same moment can both send; this cannot undo that, but names
 * it at once: the later of the two is a known duplicate. Null when there is none, or the read fails
 * (the write was sent either way; its dry run's next look names any duplicate).
 */
export async function racedWrite(
  client: CustodyClient,
  plan: PlannedWrite,
  created: Transaction,
  checkedAt: Date,
  windowMs: number | null,
): Promise<RacedWrite | null> {
  if (windowMs === null || plan.lostAnswer.by === "approval") return null;
  let others: Transaction[];
  try {
    const history = await identicalInWorkspace(client, plan, new Date(client.serviceNow().getTime() - windowMs));
    const from = checkedAt.getTime() - CLOCK_GRAIN_MS;
    others = history.identical
      .filter((match) => match.ours && match.transaction.id !== created.id && !carriesReference(match.transaction.notes, plan.correlation_id))
      .map((match) => match.transaction)
      .filter((tx) => timestampToDate(tx.created_on).getTime() >= from);
  } catch {
    return null;
  }
  if (others.length === 0) return null;
  const ids = others.map((tx) => tx.id);
  const first = Math.min(created.id, ...ids);
  const listed = ids.join(", ");
  const duplicate =
    first === created.id
      ? localText("transaction {0} (made by the other) duplicates this one", listed)
      : localText("this one (transaction {0}) duplicates transaction {1}", created.id, first);
  const made = ids.length > 1 ? localText("transactions {0}", listed) : localText("transaction {0}", listed);
  const text = localText(
    "an identical write of operator {0} was made from another store, process or machine at the same moment as this one " +
      "({1}, created after this write's last check): both passed the check before either reached the service, so both " +
      "were sent, and {2}. Reject the duplicate if it still awaits approval, or ask the person whether both were meant",
    plan.operator,
    made,
    duplicate,
  );
  return { transaction_ids: ids, message: renderText(text), text };
}
