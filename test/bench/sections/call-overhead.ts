import { join } from "node:path";
import type { CustodyClient } from "@custody/shared";
import { openTeamSession, type TeamSession } from "../../support/team-session.js";
import type { Figure, Section } from "../support/bench-report.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";
import { startSharedTokenServer, type SharedTokenServer } from "../support/shared-token-replica.js";
import { bundleEntry, MINIMAL_RESPONDER, ONE_TOOL_SERVER_ENTRY } from "../support/program-bundles.js";
import { REVISIONS, StdioRpcSession, type Revision } from "../support/stdio-rpc-session.js";

/** Issue 19: at most this much over the direct client at p50, on both generations. */
export const OVERHEAD_P50_TARGET_MS = 0.3;

export interface CallOverheadInput {
  /** The custody server over stdio, one process per generation, on the same workspace as `client`. */
  sessions: Record<Revision, StdioRpcSession>;
  client: CustodyClient;
  /** The built server, started over Streamable HTTP for the figures over HTTP. */
  custody: string;
  baseUrl: string;
  operator: string;
  accountId: number;
  accountName: string;
  calls: number;
  /** Where the one-tool SDK server is bundled for the stdio floors. */
  workDir: string;
}

/** docs/performance.md's figures on the SDK's v1 (2026-11-23), quoted: value against the direct GET. */
const V1: Record<string, string> = {
  "id p50": "2.3 ms against 1.2 ms",
  "id p99": "7.9 ms against 8 ms",
  "name p50": "3.4 ms against 2.7 ms",
  "name p99": "12.4 ms against 8.8 ms",
};

type Run = () => Promise<unknown>;

/** Milliseconds to a hundredth: the floors are below a tenth. */
const hundredths = (ms: number) => Math.round(ms * 100) / 100;

/** Runs the calls in alternating blocks of 25, so that drift on a shared machine hits every variant alike. */
async function alternate(calls: number, runs: readonly Run[]): Promise<number[][]> {
  const samples = runs.map((): number[] => []);
  const block = 25;
  for (let done = 0; done < calls; done += block) {
    for (const [index, run] of runs.entries()) {
      for (let call = 0; call < block && done + call < calls; call += 1) samples[index]?.push(await timed(run));
    }
  }
  return samples;
}

/**
 * get_account through MCP against the same GET made with shared's CustodyClient in the bench
 * process: over stdio in each generation (a 2025-11-25 session; 2026-07-28, every request carrying
 * its revision), and over Streamable HTTP (a 2025-11-25 session; 2026-07-28, where the server builds
 * a server for every request) through the SDK's v2 client.
 */
export async function measureCallOverhead(input: CallOverheadInput): Promise<Section> {
  const { client } = input;
  const viaStdio = (revision: Revision, account: string) => async () => {
    const answer = await input.sessions[revision].request("tools/call", { name: "get_account", arguments: { account } });
    if (answer.result.isError === true) throw new Error(`get_account failed: ${JSON.stringify(answer.result.content)}`);
  };
  const viaHttp = (session: TeamSession, account: string) => async () => {
    const answer = await session.call("get_account", { account });
    if ((answer.structured.account as { id?: number } | undefined)?.id !== input.accountId) throw new Error(`get_account failed: ${answer.text.slice(0, 200)}`);
  };
  const direct = () => client.getAccount(input.accountId);
  const directByName = async () => {
    const accounts = await client.listAllAccounts({ pageSize: 1000, maxPages: 1000 });
    if (!accounts.some((account) => account.name === input.accountName)) throw new Error(`no account ${input.accountName}`);
  };

  let server: SharedTokenServer | null = null;
  const http: TeamSession[] = [];
  // What a tools/call over stdio costs without this server: the pipe's round trip (the
  // hand-written responder) and the SDK's own (its one-tool server), each echoing.
  const env = { PATH: process.env.PATH ?? "" };
  const oneTool = await bundleEntry(ONE_TOOL_SERVER_ENTRY, join(input.workDir, "one-tool-overhead.js"));
  const floors = [StdioRpcSession.spawn({ args: [MINIMAL_RESPONDER], env }), StdioRpcSession.spawn({ args: [oneTool], env })] as const;
  const echo = (session: StdioRpcSession) => async () => {
    const answer = await session.request("tools/call", { name: "echo", arguments: { text: "bench" } });
    if (answer.result.isError === true) throw new Error(`echo failed: ${JSON.stringify(answer.result.content)}`);
  };
  try {
    for (const floor of floors) await floor.open("2025-11-25");
    server = await startSharedTokenServer(input.custody, "overhead", input);
    for (const revision of REVISIONS) http.push(await openTeamSession(server.url, server.token, revision));
    const [http2025, http2026] = http as [TeamSession, TeamSession];
    const byId: Run[] = [
      direct,
      viaStdio("2025-11-25", String(input.accountId)),
      viaStdio("2026-07-28", String(input.accountId)),
      viaHttp(http2025, String(input.accountId)),
      viaHttp(http2026, String(input.accountId)),
      echo(floors[0]),
      echo(floors[1]),
      viaStdio("2025-11-25", `#${input.accountId}`),
      viaStdio("2026-07-28", `#${input.accountId}`),
    ];
    const byName: Run[] = [directByName, viaStdio("2025-11-25", input.accountName), viaStdio("2026-07-28", input.accountName)];
    for (let index = 0; index < 30; index += 1) for (const run of [...byId, ...byName]) await run();
    const [directById, stdio2025, stdio2026, overHttp2025, overHttp2026, pipeFloor, sdkEcho, explicit2025, explicit2026] = (await alternate(
      input.calls,
      byId,
    )) as [number[], number[], number[], number[], number[], number[], number[], number[], number[]];
    const [directName, stdioName2025, stdioName2026] = (await alternate(Math.round(input.calls / 2), byName)) as [number[], number[], number[]];

    const row = (
      measure: string,
      mcp: number[],
      baseline: number[],
      baselineLabel: string,
      p: number,
      options: { target?: boolean; quoted?: string } = {},
    ): Figure => {
      const value = roundMs(percentile(mcp, p));
      const base = roundMs(percentile(baseline, p));
      const overhead = roundMs(percentile(mcp, p) - percentile(baseline, p));
      return {
        measure,
        value,
        unit: "ms",
        baseline: baselineLabel,
        baselineValue: base,
        ratio: ratio(value, base),
        ...(options.target ? { target: `overhead <= ${OVERHEAD_P50_TARGET_MS} ms`, meetsTarget: overhead <= OVERHEAD_P50_TARGET_MS } : {}),
        ...(options.quoted === undefined ? {} : { quoted: options.quoted }),
        note: `overhead ${overhead} ms`,
      };
    };
    const byIdLabel = "CustodyClient.getAccount, same emulator";
    const byNameLabel = "CustodyClient: list accounts, pick the name";
    return {
      title: `Per-call overhead (${input.calls} calls each, sequential)`,
      figures: [
        {
          measure: "tools/call over stdio to the hand-written responder (echo): the pipes' round trip, p50",
          value: hundredths(percentile(pipeFloor, 50)),
          unit: "ms",
          baseline: byIdLabel,
          baselineValue: hundredths(percentile(directById, 50)),
          ratio: ratio(percentile(pipeFloor, 50), percentile(directById, 50)),
          note: "what any stdio call pays here (a write to the server's stdin, one to its stdout), whatever the server does",
        },
        {
          measure: "tools/call over stdio to the one-tool SDK v2 server (echo), 2025-11-25 session, p50",
          value: hundredths(percentile(sdkEcho, 50)),
          unit: "ms",
          baseline: "the hand-written responder's echo",
          baselineValue: hundredths(percentile(pipeFloor, 50)),
          ratio: ratio(percentile(sdkEcho, 50), percentile(pipeFloor, 50)),
          note: `the SDK's own cost of a tools/call: ${hundredths(percentile(sdkEcho, 50) - percentile(pipeFloor, 50))} ms`,
        },
        row("get_account by id over stdio, 2025-11-25 session, p50", stdio2025, directById, byIdLabel, 50, { target: true, quoted: V1["id p50"] }),
        row("get_account by id over stdio, 2026-07-28, p50", stdio2026, directById, byIdLabel, 50, { target: true }),
        // "#42" is always the id: one GET, no name to rule out; "42" (above) may also be a name,
        // ruled out by the directory's hint (a one-account page beside the GET when the count it last saw is a second old).
        row('get_account by explicit id ("#42") over stdio, 2025-11-25 session, p50', explicit2025, directById, byIdLabel, 50),
        row('get_account by explicit id ("#42") over stdio, 2026-07-28, p50', explicit2026, directById, byIdLabel, 50),
        row("get_account by id over stdio, 2025-11-25 session, p99", stdio2025, directById, byIdLabel, 99, { quoted: V1["id p99"] }),
        row("get_account by id over stdio, 2026-07-28, p99", stdio2026, directById, byIdLabel, 99),
        row("get_account by id over Streamable HTTP (SDK v2 client), 2025-11-25 session, p50", overHttp2025, directById, byIdLabel, 50),
        row("get_account by id over Streamable HTTP (SDK v2 client), 2026-07-28: a server built per request, p50", overHttp2026, directById, byIdLabel, 50),
        row(
          "get_account by id over Streamable HTTP, 2026-07-28, p50, against the 2025-11-25 session",
          overHttp2026,
          overHttp2025,
          "the same over a 2025-11-25 session",
          50,
        ),
        row("get_account by name over stdio, 2025-11-25 session, p50", stdioName2025, directName, byNameLabel, 50, { quoted: V1["name p50"] }),
        row("get_account by name over stdio, 2026-07-28, p50", stdioName2026, directName, byNameLabel, 50),
        row("get_account by name over stdio, 2025-11-25 session, p99", stdioName2025, directName, byNameLabel, 99, { quoted: V1["name p99"] }),
      ],
      details: { calls: input.calls, accountId: input.accountId, accountName: input.accountName },
    };
  } finally {
    for (const session of http) await session.close();
    for (const floor of floors) await floor.close();
    await server?.stop();
  }
}
