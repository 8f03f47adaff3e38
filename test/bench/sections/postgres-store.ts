import { tokenFromText } from "@custody/mcp-server";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { CustodyClient, sealKeyFromFile, type AuditSealKey } from "@custody/shared";
import { openPostgresGuardStore, type PostgresGuardStore } from "@custody/shared/postgres-store";
import { startNginxBalancer, type NginxBalancer } from "../../support/nginx-balancer.js";
import { freePort } from "../../support/free-port.js";
import { startPostgresCluster, type PostgresCluster } from "../../support/postgres-cluster.js";
import { startReplica, type ReplicaProcess } from "../../support/replica-process.js";
import { openTeamSession } from "../../support/team-session.js";
import type { Figure, Section } from "../support/bench-report.js";
import { appendBusyDay, dayReservation } from "../support/busy-day.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";
import { seedMillionRecords } from "../support/million-records.js";
import { spawnEmulator } from "../support/spawned-program.js";
import { StdioRpcSession } from "../support/stdio-rpc-session.js";

export interface PostgresStoreInput {
  /** The MCP server's bundle and the emulator CLI's. */
  custody: string;
  emulatorCli: string;
  /** Writes timed per store (each a dry run and its confirmation). */
  writes: number;
  /** Records in the large store. */
  records: number;
  /** How long each throughput round runs. */
  loadMs: number;
}

const OPERATOR = "treasury-bot";
const TOKEN = "bench-bearer-token-shared-by-the-replicas";

/** A send of `lamports` from the demo treasury: each amount a distinct write (no duplicate). */
function send(recipient: string, lamports: number) {
  return { account: "sol-treasury", recipient, amount: String(lamports), unit: "lamport" };
}

async function write(session: StdioRpcSession, args: Record<string, string>): Promise<{ dryMs: number; confirmMs: number }> {
  let token = "";
  const dryMs = await timed(async () => {
    const answer = await session.request("tools/call", { name: "create_transaction", arguments: args });
    const structured = answer.result.structuredContent as { status?: string };
    if (structured.status !== "dry_run") throw new Error(`dry run: ${JSON.stringify(answer.result.content)}`);
    token = tokenFromText((answer.result.content as { text?: string }[]).map((item) => item.text ?? "").join("\n")) ?? "";
  });
  const confirmMs = await timed(async () => {
    const answer = await session.request("tools/call", { name: "create_transaction", arguments: { ...args, confirmation_token: token } });
    const structured = answer.result.structuredContent as { status?: string };
    if (structured.status !== "submitted") throw new Error(`confirmation: ${JSON.stringify(answer.result.content)}`);
  });
  return { dryMs, confirmMs };
}

/** The machine's CPU time so far, busy and in all, in clock ticks (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Confirmed writes per second through the balancer: `workers` MCP clients each writing in a loop for loadMs. */
async function throughput(balancer: NginxBalancer, recipient: string, next: () => number, workers: number, loadMs: number): Promise<number> {
  const sessions = await Promise.all(Array.from({ length: workers }, () => openTeamSession(balancer.url, TOKEN)));
  let confirmed = 0;
  const until = Date.now() + loadMs;
  try {
    await Promise.all(
      sessions.map(async (session) => {
        while (Date.now() < until) {
          const args = send(recipient, next());
          const dry = await session.call("create_transaction", args);
          const answer = await session.call("create_transaction", { ...args, confirmation_token: tokenFromText(dry.text) });
          if (answer.structured.status !== "submitted") throw new Error(`confirmation: ${answer.text}`);
          confirmed += 1;
        }
      }),
    );
  } finally {
    for (const session of sessions) await session.close();
  }
  return confirmed / (loadMs / 1000);
}

/** Reservations timed on each day, in alternating blocks of ten. */
const DAY_RESERVATIONS = 300;

/**
 * A reservation (the check of the derived rows against the chain's window, and its append) on a
 * day of 10,000 records against one on a day of 100, each day after `records` older records: in
 * this process, through the store (the MCP server's own work is the same on both days), each
 * store's first reservation (the whole window's read) left out.
 */
async function measureBusyDay(cluster: PostgresCluster, records: number, sealKey: AuditSealKey): Promise<Section> {
  const days = { quiet: 100, busy: 10_000 };
  const stores: Record<keyof typeof days, PostgresGuardStore | null> = { quiet: null, busy: null };
  const samples = { quiet: [] as number[], busy: [] as number[] };
  const seeding: Record<string, number> = {};
  try {
    for (const name of ["quiet", "busy"] as const) {
      const url = cluster.createDatabase(`bench_day_${days[name]}`);
      seeding[name] = (await seedMillionRecords(cluster, url, records, OPERATOR, sealKey)) + (await appendBusyDay(url, sealKey, days[name]));
      cluster.psql(url.split("/").at(-1) as string, "VACUUM ANALYZE");
      const store = await openPostgresGuardStore(url, { sealKey });
      stores[name] = store;
      await store.reserve(dayReservation(OPERATOR, `cw-warm-${name}`));
    }
    let write = 0;
    for (let done = 0; done < DAY_RESERVATIONS; done += 10) {
      for (const name of ["quiet", "busy"] as const) {
        for (let index = 0; index < 10; index += 1) {
          const reference = `cw-bench-${(write += 1)}`;
          samples[name].push(
            await timed(async () => {
              const result = await stores[name]?.reserve(dayReservation(OPERATOR, reference));
              if (result?.reserved !== true) throw new Error(`reservation: ${JSON.stringify(result)}`);
            }),
          );
        }
      }
    }
  } finally {
    for (const store of Object.values(stores)) await store?.close();
  }
  const row = (p: number, target: boolean): Figure => {
    const value = roundMs(percentile(samples.busy, p));
    const base = roundMs(percentile(samples.quiet, p));
    const ratioValue = ratio(value, base);
    return {
      measure: `a reservation on a day of ${days.busy.toLocaleString("en-US")} records, p${p}`,
      value,
      unit: "ms",
      baseline: `the same on a day of ${days.quiet} records`,
      baselineValue: base,
      ratio: ratioValue,
      ...(target ? { target: "ratio <= 1.2", meetsTarget: ratioValue === null ? null : ratioValue <= 1.2 } : {}),
    };
  };
  return {
    title:
      `PostgreSQL store: a reservation on a busy day (${DAY_RESERVATIONS} reservations each, in the bench's process, ` +
      `the day's records after ${records.toLocaleString("en-US")} older ones)`,
    figures: [row(50, true), row(95, false)],
    details: { days, seedingMs: seeding, reservations: DAY_RESERVATIONS },
  };
}

/**
 * The PostgreSQL store: a dry run's and a confirmation's latency with an empty store against one
 * holding a million records (the same server, workspace and policy, writes alternating between
 * the two); confirmed writes per second with one replica against two behind nginx.
 */
export async function measurePostgresStore(input: PostgresStoreInput): Promise<Section[]> {
  const work = mkdtempSync(join(tmpdir(), "custody-bench-pg-"));
  const cluster = await startPostgresCluster({ durable: true });
  const emulator = await spawnEmulator(input.emulatorCli, ["--seed", "demo", "--processing-delay-ms", "0"]);
  const replicas: ReplicaProcess[] = [];
  const balancers: NginxBalancer[] = [];
  const sessions: StdioRpcSession[] = [];
  try {
    const recipient =
      (await new CustodyClient({ baseUrl: emulator.ready.base_url, operator: OPERATOR }).listAllAccounts()).find((account) => account.name === "sol-cold")
        ?.address ?? "";
    const policy = join(work, "policy.json");
    // A daily limit, so each write also sums the operator's day in the store.
    writeFileSync(policy, JSON.stringify({ limits: { solana_testnet: { max_per_day: { base_units: "1000000000000000" } } } }));
    const empty = cluster.createDatabase("bench_empty");
    const large = cluster.createDatabase("bench_million");
    // The servers' seal key: the default one of their HOME.
    const seedMs = await seedMillionRecords(cluster, large, input.records, OPERATOR, sealKeyFromFile(join(work, ".custody-mcp", "audit-seal.key")));
    const env = (store: string) => ({
      PATH: process.env.PATH ?? "",
      HOME: work,
      CUSTODY_BASE_URL: emulator.ready.base_url,
      CUSTODY_OPERATOR: OPERATOR,
      CUSTODY_POLICY: policy,
      CUSTODY_STORE: store,
    });
    const emptySession = StdioRpcSession.spawn({ args: [input.custody], env: env(empty) });
    sessions.push(emptySession);
    const largeSession = StdioRpcSession.spawn({ args: [input.custody], env: env(large) });
    sessions.push(largeSession);
    await emptySession.initialize();
    await largeSession.initialize();
    let amount = 100_000;
    const next = () => (amount += 1);
    for (let index = 0; index < 10; index += 1) {
      await write(emptySession, send(recipient, next()));
      await write(largeSession, send(recipient, next()));
    }
    const samples = { empty: { dry: [] as number[], confirm: [] as number[] }, large: { dry: [] as number[], confirm: [] as number[] } };
    // Alternating blocks of ten, so drift on a shared machine hits both stores alike.
    for (let done = 0; done < input.writes; done += 10) {
      for (const [name, session] of [
        ["empty", emptySession],
        ["large", largeSession],
      ] as const) {
        for (let index = 0; index < 10; index += 1) {
          const measured = await write(session, send(recipient, next()));
          samples[name].dry.push(measured.dryMs);
          samples[name].confirm.push(measured.confirmMs);
        }
      }
    }
    const row = (measure: string, large: number[], emptyStore: number[], p: number, target: boolean): Figure => {
      const value = roundMs(percentile(large, p));
      const base = roundMs(percentile(emptyStore, p));
      const ratioValue = ratio(value, base);
      return {
        measure,
        value,
        unit: "ms",
        baseline: "the same with an empty PostgreSQL store",
        baselineValue: base,
        ratio: ratioValue,
        ...(target ? { target: "ratio <= 1.2", meetsTarget: ratioValue === null ? null : ratioValue <= 1.2 } : {}),
      };
    };
    const latency: Section = {
      title: `PostgreSQL store latency (${input.records.toLocaleString("en-US")} records against none; ${input.writes} writes each, sequential, over stdio)`,
      figures: [
        row(`create_transaction dry run, p50, store of ${input.records.toLocaleString("en-US")} records`, samples.large.dry, samples.empty.dry, 50, true),
        row("create_transaction dry run, p95", samples.large.dry, samples.empty.dry, 95, false),
        row(
          `create_transaction confirmation (sent to the emulator), p50, store of ${input.records.toLocaleString("en-US")} records`,
          samples.large.confirm,
          samples.empty.confirm,
          50,
          true,
        ),
        row("create_transaction confirmation, p95", samples.large.confirm, samples.empty.confirm, 95, false),
      ],
      details: { records: input.records, seedMs, writes: input.writes },
    };
    for (const session of sessions.splice(0)) await session.close();
    const busyDay = await measureBusyDay(cluster, input.records, sealKeyFromFile(join(work, ".custody-mcp", "audit-seal.key")));

    // Throughput: the same store, token secret and bearer token for every replica.
    const shared = cluster.createDatabase("bench_replicas");
    const secret = join(work, "token-secret");
    writeFileSync(secret, randomBytes(32), { mode: 0o600 });
    const onePort = await freePort();
    const twoPort = await freePort();
    const replicaEnv = (publicPort: number) => ({
      ...env(shared),
      CUSTODY_TOKEN_SECRET_FILE: secret,
      CUSTODY_MCP_TOKEN: TOKEN,
      CUSTODY_MCP_PUBLIC_ORIGIN: `http://127.0.0.1:${publicPort}`,
    });
    // A replica accepts one public origin: each balancer gets replicas of its own on the one store.
    const alone = await startReplica(input.custody, "solo", await freePort(), replicaEnv(onePort));
    replicas.push(alone);
    const pair = [
      await startReplica(input.custody, "r1", await freePort(), replicaEnv(twoPort)),
      await startReplica(input.custody, "r2", await freePort(), replicaEnv(twoPort)),
    ];
    replicas.push(...pair);
    const one = await startNginxBalancer([alone], onePort);
    balancers.push(one);
    const two = await startNginxBalancer(pair, twoPort);
    balancers.push(two);
    const workers = 8;
    await throughput(one, recipient, next, workers, 1000);
    await throughput(two, recipient, next, workers, 1000);
    const rounds = { one: [] as number[], two: [] as number[] };
    const busy = { one: [] as number[], two: [] as number[] };
    const measureRound = async (name: "one" | "two", balancer: NginxBalancer) => {
      const before = machineTicks();
      rounds[name].push(await throughput(balancer, recipient, next, workers, input.loadMs));
      const after = machineTicks();
      busy[name].push(Math.round(((after.busy - before.busy) / Math.max(1, after.total - before.total)) * 100));
    };
    for (let round = 0; round < 3; round += 1) {
      await measureRound("one", one);
      await measureRound("two", two);
    }
    const mean = (values: number[]) => Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
    const perSecondTwo = mean(rounds.two);
    const perSecondOne = mean(rounds.one);
    const replicasSection: Section = {
      title:
        `PostgreSQL store replicas (confirmed writes per second behind nginx; ${workers} ` +
        `clients over HTTP, ${input.loadMs / 1000} s rounds, on the emulator)`,
      figures: [
        {
          measure: "confirmed writes per second, two replicas behind nginx",
          value: perSecondTwo,
          unit: "/s",
          baseline: "one replica behind nginx",
          baselineValue: perSecondOne,
          ratio: ratio(perSecondTwo, perSecondOne),
          note:
            `machine CPU busy ${mean(busy.two)} % (one replica: ${mean(busy.one)} %): the replicas ` +
            `share this machine's ${cpus().length} cores with the emulator, PostgreSQL, nginx and ` +
            "the clients; one operator and currency, so each replica sends its writes one at a time, " +
            "and both share one store and its chain lock",
        },
      ],
      details: { rounds, busyPercent: busy, workers },
    };
    return [latency, busyDay, replicasSection];
  } finally {
    for (const session of sessions) await session.close();
    for (const balancer of balancers) await balancer.stop();
    for (const replica of replicas) await replica.stop();
    await emulator.stop();
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
