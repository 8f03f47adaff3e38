import { performance } from "node:perf_hooks";
import type { CustodyClient } from "@custody/shared";
import type { Figure, Section } from "../support/bench-report.js";
import { median, ratio, roundMs } from "../support/latency-stats.js";
import type { SeededScale } from "../support/scale-workspace.js";
import { projectSeedSeconds } from "../support/scale-workspace.js";
import type { StdioRpcSession } from "../support/stdio-rpc-session.js";
import type { RenderResult } from "./accounts-view-render.js";

/** A workspace to query: a client, an MCP server on it, and what to look for. */
export interface ProbeTarget {
  client: CustodyClient;
  session: StdioRpcSession;
  accountName: string;
  searchRef: string;
  historyTransactionId: number;
  render: () => Promise<RenderResult>;
}

export interface ProbeResult {
  accountsFirstPageMs: number;
  toolListAccountsMs: number;
  labelSearchMs: number;
  toolSearchMs: number;
  historyMs: number;
  toolHistoryMs: number;
  toolGetAccountByNameMs: number;
  renderMs: number;
  renderItems: number;
  renderRoots: string[];
  labelMatches: number;
  accountsCount: number;
  transactionsCount: number;
}

async function medianOf(times: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return roundMs(median(samples));
}

async function tool(session: StdioRpcSession, name: string, args: Record<string, unknown>): Promise<void> {
  const answer = await session.request("tools/call", { name, arguments: args });
  if (answer.result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(answer.result.content).slice(0, 400)}`);
}

/** The reads a person or an assistant makes first on a workspace, timed (medians). */
export async function probeWorkspace(target: ProbeTarget): Promise<ProbeResult> {
  const { client, session } = target;
  const accounts = await client.listAccounts({ page: 1, page_size: 1 });
  const transactions = await client.searchTransactions({ page: 1, page_size: 1 });
  const found = await client.searchTransactions({ label: target.searchRef });
  const renders: RenderResult[] = [];
  for (let index = 0; index < 3; index += 1) renders.push(await target.render());
  const render = [...renders].sort((a, b) => a.ms - b.ms)[1] as RenderResult;
  return {
    accountsFirstPageMs: await medianOf(20, () => client.listAccounts()),
    toolListAccountsMs: await medianOf(20, () => tool(session, "list_accounts", {})),
    labelSearchMs: await medianOf(10, () => client.searchTransactions({ label: target.searchRef })),
    toolSearchMs: await medianOf(10, () => tool(session, "search_transactions", { label: target.searchRef })),
    historyMs: await medianOf(20, () => client.getTransactionHistory(target.historyTransactionId)),
    toolHistoryMs: await medianOf(20, () => tool(session, "get_transaction_history", { transaction_id: target.historyTransactionId })),
    toolGetAccountByNameMs: await medianOf(5, () => tool(session, "get_account", { account: target.accountName })),
    renderMs: roundMs(render.ms),
    renderItems: render.items,
    renderRoots: render.roots,
    labelMatches: found.page_info.count,
    accountsCount: accounts.page_info.count,
    transactionsCount: transactions.page_info.count,
  };
}

export interface ScaleInput {
  seeded: SeededScale;
  scale: ProbeResult;
  demo: ProbeResult;
  /** The transactions the issue asks for, to project the seeding time. */
  targetTransactions: number;
  /** The render with one account more than the view's page cap allows. */
  overCap: RenderResult | null;
}

/** The scale figures, each beside the same read on the demo workspace in the same run. */
export function scaleSection(input: ScaleInput): Section {
  const { scale, demo, seeded } = input;
  const baseline = `demo workspace (${demo.accountsCount} accounts, ${demo.transactionsCount} transactions)`;
  const row = (measure: string, value: number, base: number, note?: string): Figure => ({ measure, value, unit: "ms", baseline, baselineValue: base, ratio: ratio(value, base), ...(note ? { note } : {}) });
  const windowSize = seeded.windows.length > 1 ? (seeded.windows[1]?.upTo ?? 0) - (seeded.windows[0]?.upTo ?? 0) : seeded.windows[0]?.upTo ?? 0;
  const projection = projectSeedSeconds(seeded.windows, windowSize, input.targetTransactions);
  const firstWindow = seeded.windows[0]?.requestsPerSecond ?? Number.NaN;
  const lastWindow = seeded.windows.at(-1)?.requestsPerSecond ?? Number.NaN;
  const figures: Figure[] = [
    row("GET /accounts, first page (client)", scale.accountsFirstPageMs, demo.accountsFirstPageMs),
    row("list_accounts tool, first page (MCP over stdio)", scale.toolListAccountsMs, demo.toolListAccountsMs),
    row(`GET /transactions?label= (client; ${scale.labelMatches} match)`, scale.labelSearchMs, demo.labelSearchMs, "a scan of every transaction's notes"),
    row("search_transactions tool by label (MCP)", scale.toolSearchMs, demo.toolSearchMs),
    row("GET /transactions/{id}/history (client)", scale.historyMs, demo.historyMs),
    row("get_transaction_history tool (MCP)", scale.toolHistoryMs, demo.toolHistoryMs),
    row("get_account tool by exact name (MCP)", scale.toolGetAccountByNameMs, demo.toolGetAccountByNameMs, "the name is resolved by listing every account (pages of 1000)"),
    row(
      `extension Accounts view, first render (${scale.renderItems.toLocaleString("en-US")} tree items)`,
      scale.renderMs,
      demo.renderMs,
      `headless, fake vscode; roots: ${scale.renderRoots.join(", ")}`,
    ),
    {
      measure: `seeding: POST /transactions throughput, last window (at ${seeded.windows.at(-1)?.upTo ?? 0} transactions)`,
      value: lastWindow,
      unit: "req/s",
      baseline: "first window of the same seeding",
      baselineValue: firstWindow,
      ratio: ratio(lastWindow, firstWindow),
      note: "every request after a commit rescans all transactions (scheduler)",
    },
  ];
  if (projection && projection.secondsPerRequestPerTransaction > 0) {
    figures.push({
      measure: `seeding: projected time to ${input.targetTransactions.toLocaleString("en-US")} transactions through POST /transactions`,
      value: Math.round(projection.projectedSeconds),
      unit: "s",
      baseline: `measured time to ${scale.transactionsCount.toLocaleString("en-US")}`,
      baselineValue: Math.round(seeded.transactionsSeconds),
      ratio: ratio(projection.projectedSeconds, seeded.transactionsSeconds),
      note: `fit: ${(projection.secondsPerRequestAtZero * 1000).toFixed(2)} ms + ${(projection.secondsPerRequestPerTransaction * 1e6).toFixed(3)} µs per transaction held, per request`,
    });
  }
  if (input.overCap) {
    figures.push({
      measure: `extension Accounts view with ${(scale.accountsCount + 1).toLocaleString("en-US")} accounts`,
      value: roundMs(input.overCap.ms),
      unit: "ms",
      baseline: `${scale.accountsCount.toLocaleString("en-US")} accounts`,
      baselineValue: scale.renderMs,
      ratio: ratio(input.overCap.ms, scale.renderMs),
      note: `roots: ${input.overCap.roots.join(", ").slice(0, 160)}`,
    });
  }
  return {
    title: `Scale: ${scale.accountsCount.toLocaleString("en-US")} accounts, ${scale.transactionsCount.toLocaleString("en-US")} transactions (issue: 10,000 and ${input.targetTransactions.toLocaleString("en-US")})`,
    figures,
    details: {
      seeding: { accountsSeconds: roundMs(seeded.accountsSeconds), transactionsSeconds: roundMs(seeded.transactionsSeconds), windows: seeded.windows, projection },
      scale,
      demo,
    },
  };
}
