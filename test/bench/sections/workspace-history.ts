// The duplicate check's read of the workspace's own history: a dry run with it against one without,
// side by side in the same run, on an account with a long history before the window and a quiet
// day, a busy day, and the busiest day the read covers (HISTORY_MAX_READ transactions); each for a
// running process, a process's first dry run on a store that has read the account before (the
// store keeps its window), and a process's first dry run on a store that never read it.
import { rmSync } from "node:fs";
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
/** A new process (client and store objects of its own) on the store files a process read the account's window through before. */
const KNOWN_STORE = "first dry run of a process on a store that has read the account before";
/** A new process on a store that never read the account (its saved windows removed). */
const FIRST_OF_STORE = "first dry run of a process, the store's first read of the account";

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

type Roads = { with: WriteRoad; without: WriteRoad; after?: () => Promise<void> };

/**
 * p50 and p90 of dry runs of each road, alternating so that both see the same workspace and load:
 * `roads` gives the pair for each run (the same pair: a long-running process; a new pair with a
 * new client: the first dry run of a process), and what to do after it, untimed.
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
    await pair.after?.();
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

type Stores = { with: FileGuardStore; without: FileGuardStore };

export async function measureWorkspaceHistory(input: WorkspaceHistoryInput): Promise<Section> {
  const paths = { with: join(input.workDir, "history-with-audit.jsonl"), without: join(input.workDir, "history-without-audit.jsonl") };
  const openStores = (): Stores => ({ with: new FileGuardStore(paths.with), without: new FileGuardStore(paths.without) });
  const stores = openStores();
  const newClient = () => new CustodyClient({ baseUrl: input.baseUrl, operator: input.operator, timeoutMs: 60_000 });
  const pairOn = (client: CustodyClient, on: Stores): Roads => {
    const road = (readWorkspaceHistory: boolean) =>
      new WriteRoad({
        client,
        operator: input.operator,
        policy: () => DEFAULT_POLICY,
        store: on[readWorkspaceHistory ? "with" : "without"],
        surface: "bench",
        readWorkspaceHistory,
      });
    return { with: road(true), without: road(false) };
  };
  const client = newClient();
  const running = pairOn(client, stores);
  const longRunning = () => running;
  // A new process on the same store files: a client that has read nothing, store objects of its own; the store's saved windows remain.
  const firstOnKnownStore = (): Roads => {
    const opened = openStores();
    return { ...pairOn(newClient(), opened), after: () => Promise.all([opened.with.close(), opened.without.close()]).then(() => {}) };
  };
  // A new process on a store that never read the account: its saved windows removed before, and the one this dry run saves let be.
  const firstOfStore = (): Roads => {
    rmSync(`${paths.with}.windows`, { recursive: true, force: true });
    return { ...pairOn(newClient(), stores), after: () => stores.with.windows.settled() };
  };
  const coldRuns = Math.max(5, Math.floor(input.runs / 4));
  const agent = new Agent({ keepAlive: true });
  try {
    await fillWindow(client, "sol-treasury", input.recipient, OLDER_HISTORY, 0);
    await jsonCall(agent, "POST", `${input.controlUrl}/clock/advance`, { ms: 25 * 60 * 60 * 1000 });
    await fillWindow(client, "sol-treasury", input.recipient, QUIET_DAY, OLDER_HISTORY);
    const quiet = await timeDryRuns(longRunning, "sol-treasury", input.recipient, input.runs);
    const quietKnown = await timeDryRuns(firstOnKnownStore, "sol-treasury", input.recipient, input.runs);
    const quietFirst = await timeDryRuns(firstOfStore, "sol-treasury", input.recipient, coldRuns);
    await fillWindow(client, "sol-treasury", input.recipient, BUSY_DAY - QUIET_DAY, OLDER_HISTORY + QUIET_DAY);
    const busy = await timeDryRuns(longRunning, "sol-treasury", input.recipient, input.runs);
    const busyKnown = await timeDryRuns(firstOnKnownStore, "sol-treasury", input.recipient, input.runs);
    const busyFirst = await timeDryRuns(firstOfStore, "sol-treasury", input.recipient, coldRuns);
    await fillWindow(client, "sol-treasury", input.recipient, HISTORY_MAX_READ - BUSY_DAY, OLDER_HISTORY + BUSY_DAY);
    const busiest = await timeDryRuns(longRunning, "sol-treasury", input.recipient, input.runs);
    const busiestKnown = await timeDryRuns(firstOnKnownStore, "sol-treasury", input.recipient, input.runs);
    const busiestFirst = await timeDryRuns(firstOfStore, "sol-treasury", input.recipient, coldRuns);
    const again = `later dry runs of the process read only what is new: one page of ${HISTORY_KNOWN_FIRST_PAGE}`;
    const fromStore = `the store's saved window (sealed) checked, one page of ${HISTORY_KNOWN_FIRST_PAGE} asked meanwhile`;
    return {
      title: "Workspace history (never twice against the workspace)",
      quotedColumn: "earlier p50 ratios (before the change, on a quiet machine; docs of 2026-11-26; a first page of 40 tried)",
      figures: [
        ...figures(`${QUIET_DAY} of the account's transactions in the window, ${OLDER_HISTORY} before it`, quiet, true, again, "1.05 before the change"),
        ...figures(`${QUIET_DAY} in the window, ${KNOWN_STORE}`, quietKnown, true, fromStore, "1.08 (a first dry run read it whole)"),
        ...figures(
          `${QUIET_DAY} in the window, ${FIRST_OF_STORE}`,
          quietFirst,
          false,
          `one page of ${HISTORY_FIRST_PAGE} read`,
          "1.13 before the change; 0.90; 1.70 and 1.72 with a first page of 40",
        ),
        ...figures(`${BUSY_DAY} in the window`, busy, true, again, "1.09 before the change"),
        ...figures(`${BUSY_DAY} in the window, ${KNOWN_STORE}`, busyKnown, true, fromStore, "1.32 (a first dry run read it whole)"),
        ...figures(
          `${BUSY_DAY} in the window, ${FIRST_OF_STORE}`,
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
        ...figures(`${HISTORY_MAX_READ} in the window, ${KNOWN_STORE}`, busiestKnown, true, fromStore, "6.13 (a first dry run read it whole)"),
        ...figures(
          `${HISTORY_MAX_READ} in the window, ${FIRST_OF_STORE}`,
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
        quietKnown,
        quietFirst,
        busy,
        busyKnown,
        busyFirst,
        busiest,
        busiestKnown,
        busiestFirst,
      },
    };
  } finally {
    agent.destroy();
    await Promise.all([stores.with.close(), stores.without.close()]);
  }
}
