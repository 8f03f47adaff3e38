// The guard's file store at scale: the MCP server's dry run and confirmation with an empty audit
// log against one of a million records, and verify-audit's memory on that log.
import { tokenFromText } from "@custody/mcp-server";
import { spawnSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FileGuardStore, Policy } from "@custody/shared";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { ConfirmPages } from "../../../mcp-server/src/confirm-page/confirm-pages.js";
import { buildContext } from "../../../mcp-server/src/on-demand/build-context.js";
import { createMcpServer } from "../../../mcp-server/src/assembly/create-server.js";
import { writeGeneratedLog } from "../../../shared/test/audit/generated-log.js";
import type { Figure, Section } from "../support/bench-report.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";
import { REPORT_PEAK_RSS } from "../support/program-bundles.js";

export interface GuardStoreScaleInput {
  /** An emulator of the demo workspace of its own, and the operator the servers act as. */
  baseUrl: string;
  operator: string;
  recipient: string;
  /** The shipped bundle, for verify-audit. */
  custodyBundle: string;
  workDir: string;
  records: number;
  /** Dry runs and confirmations per store. */
  writes: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WARM_UP_WRITES = 5;
const SMALL_LOG_RECORDS = 1000;
const MEMORY_BOUND_MIB = 150;

/** A daily maximum far above what the writes reach, so that every write counts the day and passes. */
const POLICY = Policy.parse({ limits: { solana_testnet: { max_per_day: { amount: "100000", unit: "SOL" } } } });

export interface ServerUnderTest {
  client: Client;
  close(): Promise<void>;
}

/** The MCP server as the process builds it (its context, its file store), with a real client connected in memory. */
export async function serverOn(input: Pick<GuardStoreScaleInput, "baseUrl" | "operator">, auditPath: string): Promise<ServerUnderTest> {
  const ctx = buildContext({
    baseUrl: input.baseUrl,
    operator: input.operator,
    policy: POLICY,
    store: { kind: "file", path: auditPath },
    tokenTtlMs: 300_000,
    tokenSecret: null,
    embedded: false,
    emulatorKey: null,
    pages: new ConfirmPages(),
  });
  const server = createMcpServer(ctx);
  const client = new Client({ name: "bench", version: "0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await ctx.store.close();
    },
  };
}

export async function send(client: Client, args: Record<string, unknown>): Promise<Record<string, unknown> & { token?: string | undefined }> {
  const result = await client.callTool({ name: "create_transaction", arguments: args });
  const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
  if (result.isError === true) throw new Error(`create_transaction: ${JSON.stringify(result.content).slice(0, 400)}`);
  const text = (result.content as { text?: string }[]).map((item) => item.text ?? "").join("\n");
  return { ...structured, token: tokenFromText(text) };
}

/** Each write sends another amount: an identical send would be blocked as a duplicate of the one before. */
let written = 0;

/** One write: its dry run and its confirmation, each timed. */
async function oneWrite(input: GuardStoreScaleInput, server: ServerUnderTest, note: string): Promise<{ dryRunMs: number; confirmMs: number }> {
  written += 1;
  const args = { account: "sol-treasury", recipient: input.recipient, amount: String(1000 + written), unit: "lamport", note };
  let dry: Record<string, unknown> & { token?: string | undefined } = {};
  const dryRunMs = await timed(async () => {
    dry = await send(server.client, args);
  });
  if (dry.status !== "dry_run") throw new Error(`dry run answered ${String(dry.status)}`);
  let confirmed: Record<string, unknown> = {};
  const confirmMs = await timed(async () => {
    confirmed = await send(server.client, { ...args, confirmation_token: dry.token });
  });
  if (confirmed.status !== "submitted") throw new Error(`confirmation answered ${String(confirmed.status)}`);
  return { dryRunMs, confirmMs };
}

/** verify-audit in a child process: its wall time and peak RSS (KiB). */
function verifyAudit(bundle: string, log: string): { ms: number; peakRssKb: number | null; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["--import", REPORT_PEAK_RSS, bundle, "verify-audit", log], { encoding: "utf8" });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`verify-audit ${log}: exit ${result.status}: ${result.stdout}${result.stderr}`);
  const reported = /\{"peak_rss_kb":(\d+)\}/.exec(result.stderr);
  return { ms, peakRssKb: reported ? Number(reported[1]) : null, stdout: result.stdout.trim() };
}

const mib = (kb: number | null) => (kb === null ? null : Math.round(kb / 102.4) / 10);

export async function measureGuardStoreScale(input: GuardStoreScaleInput): Promise<Section> {
  const bigDir = join(input.workDir, "audit-big");
  const emptyDir = join(input.workDir, "audit-empty");
  const smallDir = join(input.workDir, "audit-small");
  for (const dir of [bigDir, emptyDir, smallDir]) mkdirSync(dir, { recursive: true });
  const bigLog = join(bigDir, "audit.jsonl");
  const smallLog = join(smallDir, "audit.jsonl");
  const now = Date.now();
  // Two years of records before now (a write every 4 records, the operator's every other one), so the last 24 hours hold about 1,400.
  const shape = {
    fromMs: now - 730 * DAY_MS,
    toMs: now - 60_000,
    operators: [input.operator, "staking-bot"],
    currencies: ["solana_testnet", "polkadot"],
    amount: 1000n,
  };
  const generatedAt = performance.now();
  writeGeneratedLog(bigLog, { ...shape, records: input.records });
  const generateMs = performance.now() - generatedAt;
  writeGeneratedLog(smallLog, { ...shape, records: SMALL_LOG_RECORDS });
  const bigBytes = statSync(bigLog).size;

  const bigVerify = verifyAudit(input.custodyBundle, bigLog);
  const smallVerify = verifyAudit(input.custodyBundle, smallLog);

  // The first open finds no ledger: one verifying pass over the log builds it. The next opens start from it.
  const rebuildMs = await timed(async () => new FileGuardStore(bigLog).close());
  const openBig: number[] = [];
  const openEmpty: number[] = [];
  for (let index = 0; index < 11; index += 1) {
    openBig.push(await timed(async () => new FileGuardStore(bigLog).close()));
    openEmpty.push(await timed(async () => new FileGuardStore(join(emptyDir, "audit.jsonl")).close()));
  }

  const big = await serverOn(input, bigLog);
  const empty = await serverOn(input, join(emptyDir, "audit.jsonl"));
  const samples = { big: { dry: [] as number[], confirm: [] as number[] }, empty: { dry: [] as number[], confirm: [] as number[] } };
  try {
    for (let index = 0; index < WARM_UP_WRITES; index += 1) {
      await oneWrite(input, big, `bench-store warm big ${index}`);
      await oneWrite(input, empty, `bench-store warm empty ${index}`);
    }
    for (let index = 0; index < input.writes; index += 1) {
      // One write on each store in turn, the first of the pair alternating, so drift on a shared machine hits both alike.
      const order = index % 2 === 0 ? (["big", "empty"] as const) : (["empty", "big"] as const);
      for (const which of order) {
        const write = await oneWrite(input, which === "big" ? big : empty, `bench-store ${which} ${index}`);
        samples[which].dry.push(write.dryRunMs);
        samples[which].confirm.push(write.confirmMs);
      }
    }
  } finally {
    await big.close();
    await empty.close();
  }

  const latency = (measure: string, big: number[], empty: number[], p: number, target?: string): Figure => {
    const value = roundMs(percentile(big, p));
    const base = roundMs(percentile(empty, p));
    const r = ratio(percentile(big, p), percentile(empty, p));
    return {
      measure,
      value,
      unit: "ms",
      baseline: "the same with an empty audit log",
      baselineValue: base,
      ratio: r,
      ...(target === undefined ? {} : { target, meetsTarget: r === null ? null : r <= 1.2 }),
    };
  };
  const records = input.records.toLocaleString("en-US");
  const bigPeak = mib(bigVerify.peakRssKb);
  return {
    title: `Guard store: the audit log at ${records} records (${(bigBytes / 1048576).toFixed(0)} MiB)`,
    figures: [
      latency(`create_transaction dry run through MCP (in memory), ${records}-record log, p50`, samples.big.dry, samples.empty.dry, 50, "ratio <= 1.2"),
      latency(
        `create_transaction confirmation through MCP (in memory), ${records}-record log, p50`,
        samples.big.confirm,
        samples.empty.confirm,
        50,
        "ratio <= 1.2",
      ),
      latency("dry run, p90", samples.big.dry, samples.empty.dry, 90),
      latency("confirmation, p90", samples.big.confirm, samples.empty.confirm, 90),
      {
        measure: `opening the file store from its ledger (${records}-record log), median of 11`,
        value: roundMs(percentile(openBig, 50)),
        unit: "ms",
        baseline: "opening it on an empty log",
        baselineValue: roundMs(percentile(openEmpty, 50)),
        ratio: ratio(percentile(openBig, 50), percentile(openEmpty, 50)),
        note:
          `reads the ledger (${Math.round(statSync(`${bigLog}.ledger.json`).size / 1024)} KiB: the ` +
          "last 25 hours), verifies the checkpoint line and the lines after it",
      },
      {
        measure: "first open without a ledger (one verifying pass builds it; once)",
        value: roundMs(rebuildMs / 1000),
        unit: "s",
        baseline: "verify-audit of the same log",
        baselineValue: roundMs(bigVerify.ms / 1000),
        ratio: ratio(rebuildMs, bigVerify.ms),
      },
      {
        measure: `verify-audit peak RSS, ${records}-record log`,
        value: bigPeak,
        unit: "MiB",
        baseline: `verify-audit, ${SMALL_LOG_RECORDS.toLocaleString("en-US")}-record log`,
        baselineValue: mib(smallVerify.peakRssKb),
        ratio: bigVerify.peakRssKb === null || smallVerify.peakRssKb === null ? null : ratio(bigVerify.peakRssKb, smallVerify.peakRssKb),
        target: `< ${MEMORY_BOUND_MIB} MiB`,
        meetsTarget: bigPeak === null ? null : bigPeak < MEMORY_BOUND_MIB,
        note: `streamed; ${Math.round(input.records / (bigVerify.ms / 1000)).toLocaleString("en-US")} records/s`,
      },
      {
        measure: `verify-audit time, ${records}-record log`,
        value: roundMs(bigVerify.ms / 1000),
        unit: "s",
        baseline: `verify-audit, ${SMALL_LOG_RECORDS.toLocaleString("en-US")}-record log`,
        baselineValue: roundMs(smallVerify.ms / 1000),
        ratio: ratio(bigVerify.ms, smallVerify.ms),
      },
    ],
    details: {
      records: input.records,
      bytes: bigBytes,
      generateMs: Math.round(generateMs),
      writesPerStore: samples.big.dry.length,
      verify: { big: bigVerify, small: smallVerify },
      rebuildMs: Math.round(rebuildMs),
      samples,
    },
  };
}
