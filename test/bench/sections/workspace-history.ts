// The duplicate check's read of the workspace's own history: a dry run with it against one without,
// side by side in the same run, on an account with a long history before the window and a quiet
// day, a busy day, and the busiest day the read covers (HISTORY_MAX_READ transactions).
import { Agent } from "node:http";
import { join } from "node:path";
import {
  CustodyClient,
  DEFAULT_POLICY,
  FileGuardStore,
  HISTORY_FIRST_PAGE,
  HISTORY_KNOWN_FIRST_PAGE,
  HISTORY_MAX_READ,
  historyPages,
  WriteRoad,
} from "@custody/shared";
import type { Figure, Section } from "../support/bench-report.js";
import { jsonCall } from "../support/json-http.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";

export interface WorkspaceHistoryInput {
  /** An emulator of the demo workspace of its own (no processing delay), its control plane, and the operator acting. */
  baseUrl: string;
  controlUrl: string;
  operator: string;
  recipient: string;
  workDir: string;
  /** Dry runs timed per road and account. */
  runs: number;
}

const WARM_UP_RUNS = 20;
/** The account's older history, outside the window: never read beyond the first page. */
const OLDER_HISTORY = 200;
/** A quiet day: this many transactions of the account in the window, none identical to the dry run. */
const QUIET_DAY = 3;
/** A busy day. */
const BUSY_DAY = 20;
const TARGET = "ratio <= 1.2";

/** Creates `count` sends of distinct amounts on the account, directly (not through the guard): its history within the window. */
async function fillWindow(client: CustodyClient, accountName: string, recipient: string, count: number, from: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await client.createTransaction({
      account_name: accountName,
      amount: String(1000 + from + index),
      max_fees: "7500",
      recipient,
      speed: "NORMAL",
      note: { title: "bench", content: `history ${from + index}` },
    });
  }
}

type Roads = { with: WriteRoad; without: WriteRoad };

/**
 * p50 and p90 of dry runs of each road, alternating so that both see the same workspace and load:
 * `roads` gives the pair for each run (the same pair: a long-running process; a new pair with a
 * new client: the first dry run of a process, nothing of the account read before).
 */
async function timeDryRuns(roads: () => Roads, account: string, recipient: string, runs: number): Promise<{ with: number[]; without: number[] }> {
  const request = { kind: "send" as const, account, recipient, amount: 777n, speed: "NORMAL" as const };
  const call = { actor: { session: "bench", person: null } };
  const samples = { with: [] as number[], without: [] as number[] };
  for (let index = 0; index < WARM_UP_RUNS + runs; index += 1) {
    const pair = roads();
    // Each first in turn, so that neither always pays for what the other leaves behind (a collection, a timer).
    for (const which of index % 2 === 0 ? (["with", "without"] as const) : (["without", "with"] as const)) {
      let status = "";
      const ms = await timed(async () => (status = (await pair[which].prepare(request, call)).status));
      if (status !== "prepared") throw new Error(`the ${which} road's dry run was ${status}, not prepared`);
      if (index >= WARM_UP_RUNS) samples[which].push(ms);
    }
  }
  return samples;
}

/** The pages a process's first read takes to see `inWindow` transactions and one older (or reach the cap): the first alone, then two at a time. */
function pagesRead(inWindow: number): string {
  const all = historyPages(HISTORY_FIRST_PAGE, HISTORY_MAX_READ);
  const needed = all.findIndex((page) => page.end > inWindow);
  const upTo = needed === -1 ? all.length : needed === 0 ? 1 : Math.min(all.length, needed + 1 + (needed % 2));
  const sizes = all.slice(0, upTo).map((page) => page.size);
  if (sizes.length === 1) return `one page of ${HISTORY_FIRST_PAGE} read`;
  return `${sizes.length} pages read in ${1 + Math.ceil((sizes.length - 1) / 2)} round trips (${sizes.join(", ")})`;
}

/** `before`: the p50 ratios docs/performance.md gave, and those measured with a first page of 40 (tried, not kept), quoted. */
function figures(label: string, samples: { with: number[]; without: number[] }, target: boolean, note: string, before?: string): Figure[] {
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
      ...(before !== undefined && p === 50 ? { quoted: before } : {}),
      note,
    };
  });
}

export async function measureWorkspaceHistory(input: WorkspaceHistoryInput): Promise<Section> {
  const stores = {
    with: new FileGuardStore(join(input.workDir, "history-with-audit.jsonl")),
    without: new FileGuardStore(join(input.workDir, "history-without-audit.jsonl")),
  };
  const newClient = () => new CustodyClient({ baseUrl: input.baseUrl, operator: input.operator, timeoutMs: 60_000 });
  const pairOn = (client: CustodyClient): Roads => {
    const road = (readWorkspaceHistory: boolean) =>
      new WriteRoad({
        client,
        operator: input.operator,
        policy: () => DEFAULT_POLICY,
        store: stores[readWorkspaceHistory ? "with" : "without"],
        surface: "bench",
        readWorkspaceHistory,
      });
    return { with: road(true), without: road(false) };
  };
  const client = newClient();
  const running = pairOn(client);
  const longRunning = () => running;
  const firstOfProcess = () => pairOn(newClient());
  const coldRuns = Math.max(5, Math.floor(input.runs / 4));
  const agent = new Agent({ keepAlive: true });
  try {
    await fillWindow(client, "sol-treasury", input.recipient, OLDER_HISTORY, 0);
    await jsonCall(agent, "POST", `${input.controlUrl}/clock/advance`, { ms: 25 * 60 * 60 * 1000 });
    await fillWindow(client, "sol-treasury", input.recipient, QUIET_DAY, OLDER_HISTORY);
    const quiet = await timeDryRuns(longRunning, "sol-treasury", input.recipient, input.runs);
    const quietFirst = await timeDryRuns(firstOfProcess, "sol-treasury", input.recipient, coldRuns);
    await fillWindow(client, "sol-treasury", input.recipient, BUSY_DAY - QUIET_DAY, OLDER_HISTORY + QUIET_DAY);
    const busy = await timeDryRuns(longRunning, "sol-treasury", input.recipient, input.runs);
    const busyFirst = await timeDryRuns(firstOfProcess, "sol-treasury", input.recipient, coldRuns);
    await fillWindow(client, "sol-treasury", input.recipient, HISTORY_MAX_READ - BUSY_DAY, OLDER_HISTORY + BUSY_DAY);
    const busiest = await timeDryRuns(longRunning, "sol-treasury", input.recipient, input.runs);
    const busiestFirst = await timeDryRuns(firstOfProcess, "sol-treasury", input.recipient, coldRuns);
    const again = `later dry runs of the process read only what is new: one page of ${HISTORY_KNOWN_FIRST_PAGE}`;
    return {
      title: "Workspace history (never twice against the workspace)",
      quotedColumn: "earlier p50 ratios (before the change, on a quiet machine; docs of 2026-11-26; a first page of 40 tried)",
      figures: [
        ...figures(`${QUIET_DAY} of the account's transactions in the window, ${OLDER_HISTORY} before it`, quiet, true, again, "1.05 before the change"),
        ...figures(
          `${QUIET_DAY} in the window, first dry run of a process`,
          quietFirst,
          false,
          `one page of ${HISTORY_FIRST_PAGE} read`,
          "1.13 before the change; 0.90; 1.70 and 1.72 with a first page of 40",
        ),
        ...figures(`${BUSY_DAY} in the window`, busy, true, again, "1.09 before the change"),
        ...figures(
          `${BUSY_DAY} in the window, first dry run of a process`,
          busyFirst,
          false,
          pagesRead(BUSY_DAY),
          "1.53 with 3 pages one after the other; 1.25; 1.24 to 1.44 with one page of 40",
        ),
        ...figures(
          `${HISTORY_MAX_READ} in the window (the read's cap)`,
          busiest,
          true,
          again,
          "1.27 before the change (every remembered transaction compared)",
        ),
        ...figures(
          `${HISTORY_MAX_READ} in the window, first dry run of a process`,
          busiestFirst,
          false,
          `${pagesRead(HISTORY_MAX_READ)}: the busiest day the read covers`,
          "5.55 with 8 pages one after the other; 3.28; 5.3 to 7.4 with 6 pages from 40 (loaded machine)",
        ),
      ],
      details: {
        runs: input.runs,
        coldRuns,
        firstPage: HISTORY_FIRST_PAGE,
        maxRead: HISTORY_MAX_READ,
        quiet,
        quietFirst,
        busy,
        busyFirst,
        busiest,
        busiestFirst,
      },
    };
  } finally {
    agent.destroy();
    await Promise.all([stores.with.close(), stores.without.close()]);
  }
}
