import type { GuardStore } from "../guard-store/guard-store.js";
import { personOnRecord } from "../identity/person.js";
import { referencesIn } from "../kinds/kit/correlation-reference.js";
import type { PlanContext } from "../kinds/kit/plan-context.js";
import { DAILY_LIMIT_WINDOW_MS } from "../policy/daily-limit.js";
import type { LimitSet } from "../policy/limit-scope.js";
import { limitSetsFor, type Grant } from "../policy/person-grant.js";
import type { Policy } from "../policy/policy.js";
import type { Transaction } from "../schemas/transaction.js";
import type { RoadPorts } from "./road-types.js";
import type { HistoryPrefetch } from "./workspace-history.js";

/** The start of the daily limits' window, on the store's clock. */
export function limitWindowStart(store: GuardStore): Date {
  return new Date(store.time().getTime() - DAILY_LIMIT_WINDOW_MS);
}

/**
 * The limit sets a write counts against. The team's leaves out an approval of a transaction that a
 * write of this store created within the window (`creator`, its reference): the team's limit
 * counted it when it was created, and four eyes on one transfer are not two transfers. The
 * operator's and the person's still count the approval: each limits what they release.
 */
export function countedLimitSets(policy: Policy, grant: Grant, operator: string, creator: string | null): LimitSet[] {
  const sets = limitSetsFor(policy, grant, operator);
  return creator === null ? sets : sets.filter((set) => set.scope.kind !== "team");
}

/**
 * The reference of the write of this store that created the transaction within the window and
 * still counts, or null. Only the guard's own marker is looked up (the last, the one it appends),
 * once and no further back than the window: notes are anyone's text. Its trace must name the
 * transaction, which a note cannot forge.
 */
export async function creatingWrite(store: GuardStore, transaction: Transaction, since: Date): Promise<string | null> {
  const reference = referencesIn(transaction.notes).at(-1);
  if (reference === undefined) return null;
  const trace = await store.writeByReference(reference, since);
  return trace !== null && trace.transaction_id === transaction.id && trace.status !== "not_applied" ? reference : null;
}

/** What a write's spec plans with on the road: the client, the policy and the person's grant, what the limits' scopes already committed. */
export function roadPlanContext(ports: RoadPorts, policy: Policy, grant: Grant, signal: AbortSignal | undefined, history?: HistoryPrefetch): PlanContext {
  const { client, operator, store } = ports;
  return {
    client,
    operator,
    policy,
    role: grant.role,
    person: grant.person === null ? null : personOnRecord(grant.person),
    limitSets: async (transaction) =>
      countedLimitSets(policy, grant, operator, transaction === undefined ? null : await creatingWrite(store, transaction, limitWindowStart(store))),
    signal,
    spentLast24h: (currency, scope) => store.committedSince({ scope, currency, since: limitWindowStart(store) }),
    ...(history === undefined ? {} : { accountResolved: history.start }),
  };
}
