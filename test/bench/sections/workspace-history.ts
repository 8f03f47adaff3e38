// The duplicate check's read of the workspace's own history: a dry run with it against one without,
// side by side in the same run, on an account with a quiet day and on one with the busiest day
// the read covers (HISTORY_MAX_PAGES pages).
import { join } from "node:path";
import { CustodyClient, DEFAULT_POLICY, FileGuardStore, HISTORY_MAX_PAGES, HISTORY_PAGE_SIZE, WriteRoad } from "@custody/shared";
import type { Figure, Section } from "../support/bench-report.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";

export interface WorkspaceHistoryInput {
  /** An emulator of the demo workspace of its own (no processing delay), and the operator acting. */
  baseUrl: string;
  operator: string;
  recipient: string;
  workDir: string;
  /** Dry runs timed per road and account. */
  runs: number;
}

const WARM_UP_RUNS = 5;
/** A quiet day: this many transactions of the account in the window, none identical to the dry run. */
const QUIET_DAY = 20;
const TARGET = "ratio <= 1.2";

/** Creates `count` sends of distinct amounts on the account, directly (not through the guard): its history within the window. */
async function fillWindow(client: CustodyClient, accountName: string, recipient: string, count: number, from: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await client.createTransaction({ account_name: accountName, amount: String(1000 + from + index), max_fees: "7500", recipient, speed: "NORMAL", note: { title: "bench", content: `history ${from + index}` } });
  }
}

/** p50 and p90 of dry runs of each road, alternating so that both see the same workspace and load. */
async function timeDryRuns(roads: { with: WriteRoad; without: WriteRoad }, account: string, recipient: string, runs: number): Promise<{ with: number[]; without: number[] }> {
  const request = { kind: "send" as const, account, recipient, amount: 777n, speed: "NORMAL" as const };
  const call = { actor: { session: "bench", person: null } };
  const samples = { with: [] as number[], without: [] as number[] };
  for (let index = 0; index < WARM_UP_RUNS + runs; index += 1) {
    for (const which of ["with", "without"] as const) {
      let status = "";
      const ms = await timed(async () => (status = (await roads[which].prepare(request, call)).status));
      if (status !== "prepared") throw new Error(`the ${which} road's dry run was ${status}, not prepared`);
      if (index >= WARM_UP_RUNS) samples[which].push(ms);
    }
  }
  return samples;
}

function figures(label: string, samples: { with: number[]; without: number[] }, target: boolean, note: string): Figure[] {
  return [50, 90].map((p) => {
    const value = roundMs(percentile(samples.with, p));
    const baseline = roundMs(percentile(samples.without, p));
    const r = ratio(value, baseline);
    return {
      measure: `Dry run, ${label}, p${p}`,
      value,
      unit: "ms",
      baseline: "the same dry run without the history read",
      baselineValue: baseline,
      ratio: r,
      ...(target && p === 50 ? { target: TARGET, meetsTarget: r === null ? null : r <= 1.2 } : {}),
      note,
    };
  });
}

export async function measureWorkspaceHistory(input: WorkspaceHistoryInput): Promise<Section> {
  const client = new CustodyClient({ baseUrl: input.baseUrl, operator: input.operator, timeoutMs: 60_000 });
  const road = (name: string, readWorkspaceHistory: boolean) =>
    new WriteRoad({ client, operator: input.operator, policy: () => DEFAULT_POLICY, store: new FileGuardStore(join(input.workDir, `${name}-audit.jsonl`)), surface: "bench", readWorkspaceHistory });
  const roads = { with: road("history-with", true), without: road("history-without", false) };
  try {
    await fillWindow(client, "sol-treasury", input.recipient, QUIET_DAY, 0);
    const quiet = await timeDryRuns(roads, "sol-treasury", input.recipient, input.runs);
    const busiest = HISTORY_MAX_PAGES * HISTORY_PAGE_SIZE;
    await fillWindow(client, "sol-treasury", input.recipient, busiest - QUIET_DAY, QUIET_DAY);
    const busy = await timeDryRuns(roads, "sol-treasury", input.recipient, Math.max(5, Math.floor(input.runs / 4)));
    return {
      title: "Workspace history (never twice against the workspace)",
      figures: [
        ...figures(`${QUIET_DAY} transactions of the account in the window`, quiet, true, `one page of ${HISTORY_PAGE_SIZE} read`),
        ...figures(`${busiest} in the window (the read's cap)`, busy, false, `${HISTORY_MAX_PAGES} pages of ${HISTORY_PAGE_SIZE}: the busiest day the read covers`),
      ],
      details: { runs: input.runs, pageSize: HISTORY_PAGE_SIZE, maxPages: HISTORY_MAX_PAGES, quiet, busy },
    };
  } finally {
    await Promise.all([roads.with.store.close(), roads.without.store.close()]);
  }
}
