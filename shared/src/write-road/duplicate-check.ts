import type { CustodyClient } from "../client/custody-client.js";
import type { GuardStore, WriteTrace } from "../guard-store/guard-store.js";
import { repeatKey } from "../guard-store/write-traces.js";
import { finding } from "../rules/finding.js";
import type { PlannedWrite } from "./planned-write.js";
import type { DuplicateVerdict } from "./road-types.js";

/** How an earlier identical write reads in a finding: its transaction, status and time, or its unknown outcome. */
async function describeEarlier(client: CustodyClient, earlier: WriteTrace, signal?: AbortSignal): Promise<string> {
  if (earlier.transaction_id === null) {
    const state = earlier.status === "in_flight" ? "is being sent right now" : "has an unknown outcome (its answer was lost; the guard is looking it up)";
    return `an identical write sent at ${earlier.reserved_at} (reference ${earlier.reference}) ${state}`;
  }
  let status = "status unknown";
  try {
    status = `status ${(await client.getTransaction(earlier.transaction_id, { signal })).status}`;
  } catch {
    // The finding still names the transaction and its time; the status is only extra.
  }
  return `an identical write was submitted at ${earlier.reserved_at} as transaction ${earlier.transaction_id} (${status})`;
}

/**
 * Whether this write repeats one this operator already sent within the window: DUPLICATE_OF_RECENT
 * (block) naming the earlier write, unless `repeat_of` names exactly the newest earlier one
 * (REPEAT_ACKNOWLEDGED); a `repeat_of` that names anything else blocks.
 */
export async function checkDuplicate(
  client: CustodyClient,
  store: GuardStore,
  plan: PlannedWrite,
  fingerprint: string,
  since: Date,
  signal?: AbortSignal,
): Promise<DuplicateVerdict> {
  const traces = await store.recentWrites({ operator: plan.operator, fingerprint, since });
  const newest = traces.find((trace) => trace.status !== "not_applied");
  const repeatOf = plan.request.repeat_of ?? null;
  if (newest === undefined) {
    if (repeatOf === null) return { finding: null, earlier: null };
    return {
      earlier: null,
      finding: finding("block", "REPEAT_OF_NOTHING", `repeat_of is "${repeatOf}", but no identical write of operator ${plan.operator} stands since ${since.toISOString()}: leave repeat_of out`, { repeat_of: repeatOf }),
    };
  }
  const key = repeatKey(newest);
  const described = await describeEarlier(client, newest, signal);
  if (repeatOf === key) {
    return { earlier: newest, finding: finding("info", "REPEAT_ACKNOWLEDGED", `sent again on purpose: ${described}`, { repeat_of: key }) };
  }
  const wrong = repeatOf === null ? "" : ` (repeat_of "${repeatOf}" does not name it)`;
  return {
    earlier: newest,
    finding: finding(
      "block",
      "DUPLICATE_OF_RECENT",
      `${described}${wrong}: this would send it twice. If the person means to send it again, run a new dry run with repeat_of "${key}"`,
      { earlier_reference: newest.reference, earlier_transaction_id: newest.transaction_id ?? "unknown", earlier_at: newest.reserved_at, repeat_of: key },
    ),
  };
}
