import { openTeamSession, type TeamSession } from "../../support/team-session.js";
import type { Figure } from "../support/bench-report.js";
import { median, ratio, roundMs, timed } from "../support/latency-stats.js";
import { startSharedTokenServer, type SharedTokenServer } from "../support/shared-token-replica.js";
import { StdioRpcSession } from "../support/stdio-rpc-session.js";

/** Issue 19: the first get_account by name in a process at most this long, at 10,000 accounts. */
export const FIRST_BY_NAME_TARGET_MS = 50;
/** ... and a repeated one over 2026-07-28 costing what it costs over 2025-11-25. */
export const REPEATED_RATIO_TARGET = 1.2;
/** Untimed calls of each generation before the repeated ones are timed. */
const WARM_UP_CALLS = 25;

export interface NameOverGenerationsInput {
  custody: string;
  baseUrl: string;
  operator: string;
  accountName: string;
  /** Repeated calls timed per generation, alternating in blocks of 5. */
  repeats: number;
  /** Environment of a stdio server process (its own audit log). */
  stdioEnv: Record<string, string>;
}

export interface NameOverGenerations {
  /** The process's first get_account by name: a 2026-07-28 request (a server built for it), once the process has warmed up. */
  firstMs: number;
  /** How long the warm-up took, as the server logged it. */
  warmUpMs: number | null;
  repeated2025Ms: number;
  repeated2026Ms: number;
  /** Over stdio: a session's first get_account by name after tools/list and the warm-up it starts, and the warm-up's time. */
  stdioFirstMs: number;
  stdioWarmUpMs: number | null;
}

/** A stdio session as a client opens one (initialize, tools/list), its first get_account by name timed once the warm-up is logged. */
async function stdioFirstByName(input: NameOverGenerationsInput): Promise<{ firstMs: number; warmUpMs: number | null }> {
  const session = StdioRpcSession.spawn({ args: [input.custody], env: input.stdioEnv });
  try {
    await session.open("2025-11-25");
    await session.request("tools/list");
    await session.waitForStderr("warmed up in ");
    const firstMs = await timed(async () => {
      const answer = await session.request("tools/call", { name: "get_account", arguments: { account: input.accountName } });
      if (answer.result.isError === true) throw new Error(`get_account failed: ${JSON.stringify(answer.result.content)}`);
    });
    const warmed = /warmed up in (\d+) ms/.exec(session.stderr());
    return { firstMs: roundMs(firstMs), warmUpMs: warmed ? Number(warmed[1]) : null };
  } finally {
    await session.close();
  }
}

/**
 * get_account by name over Streamable HTTP in a fresh server process: the process's first (a
 * 2026-07-28 request, which builds a server of its own), then repeated over a 2025-11-25 session
 * and over 2026-07-28, alternating.
 */
export async function measureNameOverGenerations(input: NameOverGenerationsInput): Promise<NameOverGenerations> {
  let server: SharedTokenServer | null = null;
  const sessions: TeamSession[] = [];
  try {
    server = await startSharedTokenServer(input.custody, "names", input);
    // A long-running server lists the account names once it listens (src/on-demand/warm-up.ts): the first call is timed after that.
    await server.waitForStderr("warmed up in ");
    const modern = await openTeamSession(server.url, server.token, "2026-07-28");
    sessions.push(modern);
    const byName = (session: TeamSession) => async () => {
      const answer = await session.call("get_account", { account: input.accountName });
      if ((answer.structured.account as { name?: string } | undefined)?.name !== input.accountName)
        throw new Error(`get_account failed: ${answer.text.slice(0, 300)}`);
    };
    const firstMs = await timed(byName(modern));
    const legacy = await openTeamSession(server.url, server.token, "2025-11-25");
    sessions.push(legacy);
    // Both generations' paths warmed alike before they are compared (the first calls of each still compile).
    for (let call = 0; call < WARM_UP_CALLS; call += 1) {
      await byName(modern)();
      await byName(legacy)();
    }
    const samples2025: number[] = [];
    const samples2026: number[] = [];
    for (let done = 0; done < input.repeats; done += 5) {
      for (let call = 0; call < 5; call += 1) samples2026.push(await timed(byName(modern)));
      for (let call = 0; call < 5; call += 1) samples2025.push(await timed(byName(legacy)));
    }
    const warmed = /warmed up in (\d+) ms/.exec(server.stderr());
    const stdio = await stdioFirstByName(input);
    return {
      firstMs: roundMs(firstMs),
      warmUpMs: warmed ? Number(warmed[1]) : null,
      repeated2025Ms: roundMs(median(samples2025)),
      repeated2026Ms: roundMs(median(samples2026)),
      stdioFirstMs: stdio.firstMs,
      stdioWarmUpMs: stdio.warmUpMs,
    };
  } finally {
    for (const session of sessions) await session.close();
    await server?.stop();
  }
}

/** A first get_account by name against the bound. */
function firstByNameFigure(measure: string, valueMs: number, note: string, quoted: string): Figure {
  return {
    measure,
    value: valueMs,
    unit: "ms",
    baseline: "the issue's bound",
    baselineValue: FIRST_BY_NAME_TARGET_MS,
    ratio: ratio(valueMs, FIRST_BY_NAME_TARGET_MS),
    target: `<= ${FIRST_BY_NAME_TARGET_MS} ms`,
    meetsTarget: valueMs <= FIRST_BY_NAME_TARGET_MS,
    note,
    quoted,
  };
}

/** The figures of issue 19's name look-ups, at the scale workspace's size. */
export function nameOverGenerationsFigures(measured: NameOverGenerations, stdioFirstMs: number, accounts: string): Figure[] {
  const repeated = ratio(measured.repeated2026Ms, measured.repeated2025Ms);
  return [
    firstByNameFigure(
      `get_account by exact name over Streamable HTTP, the process's first (2026-07-28), ${accounts} accounts, after the server's warm-up`,
      measured.firstMs,
      "the warm-up (tools, context, one listing of every account) took " +
        `${measured.warmUpMs ?? "n/a"} ms after the server listened; a call before its end waits for it`,
      "1,446.2 ms (stdio)",
    ),
    firstByNameFigure(
      `get_account by exact name over stdio, a session's first after tools/list (2025-11-25), ${accounts} accounts, after the warm-up it starts`,
      measured.stdioFirstMs,
      `the warm-up after the first tools/list answer took ${measured.stdioWarmUpMs ?? "n/a"} ms; a call ` +
        "before its end waits for it. A session that never lists the tools is not warmed up: its first by " +
        `name (the row above, no tools/list) took ${stdioFirstMs} ms`,
      "1,302.7 ms (no warm-up)",
    ),
    {
      measure: "get_account by exact name over Streamable HTTP, repeated, 2026-07-28 (a server built per request)",
      value: measured.repeated2026Ms,
      unit: "ms",
      baseline: "the same over a 2025-11-25 session",
      baselineValue: measured.repeated2025Ms,
      ratio: repeated,
      target: `ratio <= ${REPEATED_RATIO_TARGET}`,
      meetsTarget: repeated === null ? null : repeated <= REPEATED_RATIO_TARGET,
      note: "medians of 100 each after 25 untimed, alternating in blocks of 5",
      quoted: "2.2 ms (stdio)",
    },
  ];
}
