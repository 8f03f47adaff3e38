// A dry run's cost with many dry runs left open (never confirmed, not yet expired) against none:
// the file store keeps each in files of its own, so a dry run writes and reads only its own.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FileGuardStore } from "@custody/shared";
import type { Figure, Section } from "../support/bench-report.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";
import { send, serverOn, type ServerUnderTest } from "./guard-store-scale.js";

export const OPEN_INTENTS_TITLE = "Open dry runs (file store)";

export interface OpenIntentsInput {
  baseUrl: string;
  operator: string;
  recipient: string;
  workDir: string;
  /** Dry runs left open in one store before the timed ones. */
  open: number;
  /** Timed dry runs per store. */
  dryRuns: number;
}

const WARM_UP = 5;
const HOUR_MS = 60 * 60 * 1000;

export async function measureOpenIntents(input: OpenIntentsInput): Promise<Section> {
  const openLog = join(input.workDir, "intents-open", "audit.jsonl");
  const emptyLog = join(input.workDir, "intents-none", "audit.jsonl");
  for (const log of [openLog, emptyLog]) mkdirSync(join(log, ".."), { recursive: true });
  // Left open as a dry run leaves them: one prepared intent each, of a dry run's size (about 1 KB sealed).
  const filling = new FileGuardStore(openLog);
  const fillMs = await timed(async () => {
    for (let index = 0; index < input.open; index += 1) {
      await filling.prepareIntent({
        fingerprint: randomBytes(32).toString("hex"),
        nonce: randomBytes(16).toString("hex"),
        operator: input.operator,
        expires_at: Date.now() + HOUR_MS,
        sealed: JSON.stringify({ padding: "x".repeat(1000) }),
      });
    }
  });
  await filling.close();

  const servers: Record<"open" | "none", ServerUnderTest> = { open: await serverOn(input, openLog), none: await serverOn(input, emptyLog) };
  const samples = { open: [] as number[], none: [] as number[] };
  let amount = 0;
  const dryRun = async (which: "open" | "none") => {
    amount += 1;
    const args = {
      account: "sol-treasury",
      recipient: input.recipient,
      amount: String(2000 + amount),
      unit: "lamport",
      note: `bench-intents ${which} ${amount}`,
    };
    return timed(async () => {
      const answer = await send(servers[which].client, args);
      if (answer.status !== "dry_run") throw new Error(`dry run answered ${String(answer.status)}`);
    });
  };
  try {
    for (let index = 0; index < WARM_UP; index += 1) for (const which of ["open", "none"] as const) await dryRun(which);
    for (let index = 0; index < input.dryRuns; index += 1) {
      // Alternating which goes first, so drift on a shared machine hits both alike.
      for (const which of index % 2 === 0 ? (["open", "none"] as const) : (["none", "open"] as const)) samples[which].push(await dryRun(which));
    }
  } finally {
    await servers.open.close();
    await servers.none.close();
  }
  const open = input.open.toLocaleString("en-US");
  const figure = (p: number, target?: string): Figure => {
    const r = ratio(percentile(samples.open, p), percentile(samples.none, p));
    return {
      measure: `create_transaction dry run through MCP (in memory), ${open} dry runs open, p${p}`,
      value: roundMs(percentile(samples.open, p)),
      unit: "ms",
      baseline: "the same with none open",
      baselineValue: roundMs(percentile(samples.none, p)),
      ratio: r,
      ...(target === undefined ? {} : { target, meetsTarget: r === null ? null : r <= 1.2 }),
    };
  };
  return {
    title: OPEN_INTENTS_TITLE,
    figures: [figure(50, "ratio <= 1.2"), figure(90)],
    details: { open: input.open, fillMs: Math.round(fillMs), dryRunsPerStore: samples.open.length, samples },
  };
}
