import { CustodyClient, resolveAccount } from "@custody/shared";
import type { Figure, Section } from "../support/bench-report.js";
import type { LoadResult } from "../support/http-load.js";
import { median, ratio, roundMs, timed } from "../support/latency-stats.js";
import type { SeededScale } from "../support/scale-workspace.js";
import type { StdioRpcSession } from "../support/stdio-rpc-session.js";
import type { RenderResult } from "./accounts-view-render.js";

/** A workspace to query: a client, an MCP server on it (a session opened for the probe), and what to look for. */
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
  /** get_account by name: the session's first (its directory of names is empty) and the median of the next ones. */
  toolGetAccountByNameFirstMs: number;
  toolGetAccountByNameMs: number;
  /** shared's resolveAccount by name with a new client: the first (a listing of every account), then the median of repeats (the hint). */
  resolveFirstMs: number;
  resolveRepeatMs: number;
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
  for (let index = 0; index < times; index += 1) samples.push(await timed(run));
  return roundMs(median(samples));
}

async function tool(session: StdioRpcSession, name: string, args: Record<string, unknown>): Promise<void> {
  const answer = await session.request("tools/call", { name, arguments: args });
  if (answer.result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(answer.result.content).slice(0, 400)}`);
}

/** The reads a person or an assistant makes first on a workspace, timed (medians unless said). */
export async function probeWorkspace(target: ProbeTarget): Promise<ProbeResult> {
  const { client, session } = target;
  const accounts = await client.listAccounts({ page: 1, page_size: 1 });
  const transactions = await client.searchTransactions({ page: 1, page_size: 1 });
  const found = await client.searchTransactions({ label: target.searchRef });
  const toolGetAccountByNameFirstMs = roundMs(await timed(() => tool(session, "get_account", { account: target.accountName })));
  const resolver = new CustodyClient({ baseUrl: client.baseUrl, operator: client.operator, timeoutMs: 120_000 });
  const resolveFirstMs = roundMs(await timed(() => resolveAccount(resolver, target.accountName)));
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
    toolGetAccountByNameFirstMs,
    toolGetAccountByNameMs: await medianOf(10, () => tool(session, "get_account", { account: target.accountName })),
    resolveFirstMs,
    resolveRepeatMs: await medianOf(20, () => resolveAccount(resolver, target.accountName)),
    renderMs: roundMs(render.ms),
    renderItems: render.items,
    renderRoots: render.roots,
    labelMatches: found.page_info.count,
    accountsCount: accounts.page_info.count,
    transactionsCount: transactions.page_info.count,
  };
}

export interface WritePath {
  /** POST /transactions load on the scale emulator before the seed, and again with the seed held. */
  before: LoadResult;
  after: LoadResult;
  /** Transactions held when each load ran. */
  heldBefore: number;
  heldAfter: number;
}

export interface ScaleInput {
  seeded: SeededScale;
  scale: ProbeResult;
  demo: ProbeResult;
  writePath: WritePath | null;
  /** Peak RSS (KiB) of the scale emulator and of the MCP server's scale session. */
  peakRssKb: { emulator: number | null; mcpSession: number | null };
  /** Issue 19's name look-ups over both generations (sections/name-over-generations.ts), shown after the session's. */
  names?: Figure[];
}

const count = (value: number): string => value.toLocaleString("en-US");

/** The scale figures, each beside the same read on the demo workspace (or the same load before the seed) in the same run. */
export function scaleSection(input: ScaleInput): Section {
  const { scale, demo, seeded } = input;
  const baseline = `demo workspace (${demo.accountsCount} accounts, ${demo.transactionsCount} transactions)`;
  const row = (measure: string, value: number, base: number, note?: string): Figure => ({
    measure,
    value,
    unit: "ms",
    baseline,
    baselineValue: base,
    ratio: ratio(value, base),
    ...(note ? { note } : {}),
  });
  const figures: Figure[] = [
    {
      measure: `seeding ${count(seeded.accounts)} accounts and ${count(seeded.transactions)} transactions (POST /_control/seed/scale, in memory)`,
      value: Math.round(seeded.seedSeconds * 10) / 10,
      unit: "s",
      baseline: "the issue's bound: well under a minute",
      baselineValue: 60,
      ratio: ratio(seeded.seedSeconds, 60),
      note: `${seeded.commits} commits; statuses ${Object.entries(seeded.byStatus)
        .map(([status, value]) => `${status} ${count(value)}`)
        .join(", ")}`,
    },
    row("GET /accounts, first page (client)", scale.accountsFirstPageMs, demo.accountsFirstPageMs),
    row("list_accounts tool, first page (MCP over stdio)", scale.toolListAccountsMs, demo.toolListAccountsMs),
    row(
      `GET /transactions?label= (client; ${scale.labelMatches} match)`,
      scale.labelSearchMs,
      demo.labelSearchMs,
      "reads every transaction's notes (folded once, at commit)",
    ),
    row("search_transactions tool by label (MCP)", scale.toolSearchMs, demo.toolSearchMs),
    row("GET /transactions/{id}/history (client)", scale.historyMs, demo.historyMs),
    row("get_transaction_history tool (MCP)", scale.toolHistoryMs, demo.toolHistoryMs),
    row(
      "resolveAccount by name, new client (lists every account)",
      scale.resolveFirstMs,
      demo.resolveFirstMs,
      "pages of 1000; what every resolution cost before the directory",
    ),
    row(
      "resolveAccount by name, repeated (directory hint: GET by id; a one-account page once the count seen is 1 s old)",
      scale.resolveRepeatMs,
      demo.resolveRepeatMs,
      "median of 20",
    ),
    row("get_account tool by exact name, the session's first (MCP)", scale.toolGetAccountByNameFirstMs, demo.toolGetAccountByNameFirstMs, "one sample"),
    row("get_account tool by exact name, repeated (MCP)", scale.toolGetAccountByNameMs, demo.toolGetAccountByNameMs, "median of 10"),
    ...(input.names ?? []),
    row(
      `extension Accounts view, first render (${count(scale.renderItems)} tree items)`,
      scale.renderMs,
      demo.renderMs,
      `headless, fake vscode; the first page of 200 (the old read cache failed above 10,000 accounts); roots: ${scale.renderRoots.join(", ")}`,
    ),
  ];
  const write = input.writePath;
  if (write) {
    figures.push(
      {
        measure: `POST /transactions (send, approved, signed, broadcast) with ${count(write.heldAfter)} transactions held: requests per second`,
        value: write.after.requestsPerSecond,
        unit: "req/s",
        baseline: `the same load with ${count(write.heldBefore)} held, before the seed`,
        baselineValue: write.before.requestsPerSecond,
        ratio: ratio(write.after.requestsPerSecond, write.before.requestsPerSecond),
        note: "16 keep-alive connections, 3 s; a commit costs O(log n) in the scheduler's due queue",
      },
      {
        measure: `POST /transactions with ${count(write.heldAfter)} held: p99 latency`,
        value: write.after.p99Ms,
        unit: "ms",
        baseline: `${count(write.heldBefore)} held`,
        baselineValue: write.before.p99Ms,
        ratio: ratio(write.after.p99Ms, write.before.p99Ms),
      },
    );
  }
  const mib = (kb: number | null): number | null => (kb === null ? null : Math.round(kb / 102.4) / 10);
  figures.push({
    measure: "emulator peak RSS, scale workspace (seed, loads and reads)",
    value: mib(input.peakRssKb.emulator),
    unit: "MiB",
    baseline: "MCP server's peak in its scale session",
    baselineValue: mib(input.peakRssKb.mcpSession),
    ratio: input.peakRssKb.emulator === null || input.peakRssKb.mcpSession === null ? null : ratio(input.peakRssKb.emulator, input.peakRssKb.mcpSession),
  });
  return {
    title: `Scale: ${count(scale.accountsCount)} accounts, ${count(scale.transactionsCount)} transactions (issue: 10,000 and 200,000)`,
    figures,
    details: { seeded, writePath: input.writePath, scale, demo },
  };
}
