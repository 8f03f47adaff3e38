import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { CustodyClient } from "@custody/shared";
import { expect, it, vi } from "vitest";
import { renderAccountsView } from "./sections/accounts-view-render.js";
import { measureAnswerSizes } from "./sections/answer-sizes.js";
import { measureCallOverhead } from "./sections/call-overhead.js";
import { measureColdStart } from "./sections/cold-start.js";
import { measureGuardStoreScale } from "./sections/guard-store-scale.js";
import { measureHttpThroughput } from "./sections/http-throughput.js";
import { measureNameOverGenerations, nameOverGenerationsFigures } from "./sections/name-over-generations.js";
import { measureOpenIntents, OPEN_INTENTS_TITLE } from "./sections/open-intents.js";
import { measurePostgresStore } from "./sections/postgres-store.js";
import { memorySection, type PeakMemory } from "./sections/peak-memory.js";
import { probeWorkspace, scaleSection, type ProbeResult, type WritePath } from "./sections/scale-workspace.js";
import { measureSignInOverhead } from "./sections/sign-in-overhead.js";
import { measureToolsListSize } from "./sections/tools-list-size.js";
import { measureTreasuryTasks, TREASURY_TASKS_TITLE } from "./sections/treasury-tasks.js";
import { measureWorkspaceHistory } from "./sections/workspace-history.js";
import { machineLine, reportMarkdown, sectionMarkdown, spliceResults, spliceSection, type BenchReport, type Section } from "./support/bench-report.js";
import { runLoad } from "./support/http-load.js";
import { registerOperator } from "./support/operator-registration.js";
import { bundleDir, bundleEntry, buildCustodyServer, BARE_JSON_SERVER, EMULATOR_CLI_ENTRY, REPO_DIR } from "./support/program-bundles.js";
import { createSendingAccount, seedScaleWorkspace, type SeededScale } from "./support/scale-workspace.js";
import { spawnEmulator, spawnUntilReady, type SpawnedProgram } from "./support/spawned-program.js";
import { StdioRpcSession, type Revision } from "./support/stdio-rpc-session.js";

// `pnpm bench`: every figure beside its baseline measured in the same run. Writes
// test/bench/results/latest.json and the tables of docs/performance.md.
vi.mock("vscode", () => import("../../extension/test/unit/support/fake-vscode.js"));

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new Error(`${name}: must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The sections `CUSTODY_BENCH_ONLY` can run alone, by the start of their table's heading. */
const ALONE = {
  scale: "Scale",
  store: "Guard store",
  intents: "Open dry runs",
  postgres: "PostgreSQL store",
  history: "Workspace history",
  startup: "MCP server cold start",
  tasks: TREASURY_TASKS_TITLE,
} as const;
type Alone = keyof typeof ALONE;

function alone(): Alone | null {
  const raw = process.env.CUSTODY_BENCH_ONLY;
  if (raw === undefined || raw === "") return null;
  if (raw in ALONE) return raw as Alone;
  throw new Error(`CUSTODY_BENCH_ONLY: one of ${Object.keys(ALONE).join(", ")}, got ${JSON.stringify(raw)}`);
}

const CONFIG = {
  coldStartRuns: setting("CUSTODY_BENCH_COLD_RUNS", 21),
  /** A Node 22.1+ binary: the cold start is measured under it too, with and without the compile cache. */
  node22: process.env.CUSTODY_BENCH_NODE22 ?? null,
  calls: setting("CUSTODY_BENCH_CALLS", 300),
  concurrency: 32,
  loadMs: setting("CUSTODY_BENCH_LOAD_MS", 3000),
  scaleAccounts: setting("CUSTODY_BENCH_ACCOUNTS", 10_000),
  scaleTransactions: setting("CUSTODY_BENCH_TRANSACTIONS", 200_000),
  auditRecords: setting("CUSTODY_BENCH_AUDIT_RECORDS", 1_000_000),
  auditWrites: setting("CUSTODY_BENCH_AUDIT_WRITES", 100),
  /** Writes timed per PostgreSQL store, and the records of the large one. */
  pgWrites: setting("CUSTODY_BENCH_PG_WRITES", 100),
  pgRecords: setting("CUSTODY_BENCH_PG_RECORDS", 1_000_000),
  /** Dry runs left open in the store of the open-dry-runs section, and the dry runs timed per store. */
  openIntents: setting("CUSTODY_BENCH_OPEN_INTENTS", 10_000),
  openIntentDryRuns: setting("CUSTODY_BENCH_OPEN_INTENT_DRY_RUNS", 100),
  /** Dry runs timed per road in the workspace history section. */
  historyRuns: setting("CUSTODY_BENCH_HISTORY_RUNS", 40),
  /**
   * "scale" runs the scale section alone (with the demo reads it is compared with), "store" the guard store's, "intents" the open
   * dry runs', "postgres" the PostgreSQL store's, "history" the workspace history's, "startup" the cold start's, tools/list's and
   * the per-call overhead's (issue 19), "tasks" the treasury tasks' (issue 21); each replaces only its tables.
   */
  only: alone(),
};
const PG_TITLE = "PostgreSQL store";

/** An address outside every workspace, where the write-path load sends. */
const OUTSIDE_SOLANA = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";

const DEMO_OPERATOR = "treasury-bot";
const SCALE_OPERATOR = "scale-bot";
const RESULTS_JSON = join(REPO_DIR, "test", "bench", "results", "latest.json");
const PERFORMANCE_DOC = join(REPO_DIR, "docs", "performance.md");

async function solColdAddress(baseUrl: string): Promise<string> {
  const solCold = (await new CustodyClient({ baseUrl, operator: DEMO_OPERATOR }).listAllAccounts()).find((account) => account.name === "sol-cold");
  if (!solCold) throw new Error("the demo workspace lacks sol-cold");
  return solCold.address;
}

async function measured(sections: Section[], title: string, run: () => Promise<Section | Section[]>): Promise<void> {
  try {
    const result = await run();
    sections.push(...(Array.isArray(result) ? result : [result]));
  } catch (error) {
    sections.push({ title, figures: [], error: error instanceof Error ? (error.stack ?? error.message).split("\n").slice(0, 4).join(" ") : String(error) });
  }
}

function custodyEnv(home: string, baseUrl: string, operator: string, name: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    CUSTODY_BASE_URL: baseUrl,
    CUSTODY_OPERATOR: operator,
    CUSTODY_AUDIT_LOG: join(home, `${name}-audit.jsonl`),
  };
}

function machineOf(): BenchReport["machine"] {
  const cpu = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? "unknown",
    totalMemoryMb: Math.round(totalmem() / 1048576),
  };
}

async function openSession(bundle: string, env: Record<string, string>, revision: Revision = "2025-11-25"): Promise<StdioRpcSession> {
  const session = StdioRpcSession.spawn({ args: [bundle], env });
  await session.open(revision);
  return session;
}

it("benchmarks", async () => {
  const startedAt = new Date();
  const sections: Section[] = [];
  const full = CONFIG.only === null;
  const startup = full || CONFIG.only === "startup";
  const runScale = full || CONFIG.only === "scale";
  const work = bundleDir();
  const home = mkdtempSync(join(tmpdir(), "custody-bench-home-"));
  const custody = buildCustodyServer(join(work, "custody-mcp.js"));
  const emulatorCli = await bundleEntry(EMULATOR_CLI_ENTRY, join(work, "custody-emulator.js"));
  const postgresStore = () => measurePostgresStore({ custody, emulatorCli, writes: CONFIG.pgWrites, records: CONFIG.pgRecords, loadMs: CONFIG.loadMs });
  if (CONFIG.only === "postgres") {
    await measured(sections, PG_TITLE, postgresStore);
    const report = { startedAt: startedAt.toISOString(), durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000), machine: machineOf() };
    const intro = `_${machineLine(report)} These sections alone (\`CUSTODY_BENCH_ONLY=postgres pnpm bench\`); the other tables are from the last full run._`;
    let document = existsSync(PERFORMANCE_DOC) ? readFileSync(PERFORMANCE_DOC, "utf8") : "# Performance\n";
    for (const [index, section] of sections.entries())
      document = spliceSection(document, section.title.split(" (")[0] as string, sectionMarkdown(section, index === 0 ? intro : undefined));
    mkdirSync(join(REPO_DIR, "test", "bench", "results"), { recursive: true });
    writeFileSync(join(REPO_DIR, "test", "bench", "results", "latest-postgres.json"), `${JSON.stringify({ config: CONFIG, ...report, sections }, null, 2)}\n`);
    writeFileSync(PERFORMANCE_DOC, document);
    for (const dir of [work, home]) rmSync(dir, { recursive: true, force: true });
    expect(sections.filter((section) => section.error !== undefined).map((section) => `${section.title}: ${section.error}`)).toEqual([]);
    return;
  }
  const peak: PeakMemory = {
    floorResponder: null,
    oneToolServer: null,
    custodyColdStart: null,
    custodyDemoSession: null,
    custodyScaleSession: null,
    bareHttpServer: null,
    emulatorDemo: null,
    emulatorScale: null,
  };
  let demoProbe: ProbeResult | null = null;
  if (runScale || startup) {
    const demo = await spawnEmulator(emulatorCli, ["--seed", "demo"]);
    const demoClient = new CustodyClient({ baseUrl: demo.ready.base_url, operator: DEMO_OPERATOR });
    let demoSession: StdioRpcSession | null = null;
    try {
      if (startup) {
        await measured(sections, "MCP server cold start", async () => {
          const cold = await measureColdStart({
            custodyBundle: custody,
            custodyEnv: custodyEnv(home, demo.ready.base_url, DEMO_OPERATOR, "cold"),
            workDir: work,
            runs: CONFIG.coldStartRuns,
            node22: CONFIG.node22,
          });
          peak.floorResponder = cold.peakRssKb.floor ?? null;
          peak.oneToolServer = cold.peakRssKb.one_tool ?? null;
          peak.custodyColdStart = cold.peakRssKb.custody ?? null;
          return [cold.section, measureToolsListSize(cold.custodyToolsList, cold.oneToolToolsList, cold.custodyToolsList2026)];
        });
      }

      demoSession = await openSession(custody, custodyEnv(home, demo.ready.base_url, DEMO_OPERATOR, "demo"));
      const accounts = await demoClient.listAllAccounts();
      const solTreasury = accounts.find((account) => account.name === "sol-treasury");
      const solCold = accounts.find((account) => account.name === "sol-cold");
      if (!solTreasury || !solCold) throw new Error("the demo workspace lacks sol-treasury or sol-cold");
      const session = demoSession;
      if (startup) {
        await measured(sections, "Per-call overhead", async () => {
          const modern = await openSession(custody, custodyEnv(home, demo.ready.base_url, DEMO_OPERATOR, "demo-2026"), "2026-07-28");
          try {
            return await measureCallOverhead({
              sessions: { "2025-11-25": session, "2026-07-28": modern },
              client: demoClient,
              custody,
              baseUrl: demo.ready.base_url,
              operator: DEMO_OPERATOR,
              accountId: solTreasury.id,
              accountName: solTreasury.name,
              calls: CONFIG.calls,
              workDir: work,
            });
          } finally {
            await modern.close();
          }
        });
      }
      if (full) {
        await measured(sections, "Signing in", () =>
          measureSignInOverhead({ custody, baseUrl: demo.ready.base_url, operator: DEMO_OPERATOR, accountId: solTreasury.id, calls: CONFIG.calls }),
        );
        const dotStaking = accounts.find((account) => account.name === "dot-staking");
        await measured(sections, "Answer sizes", () =>
          measureAnswerSizes({
            session,
            solTreasury: solTreasury.name,
            solCold: solCold.name,
            dotStaking: dotStaking?.name ?? "dot-staking",
            recipient: OUTSIDE_SOLANA,
          }),
        );
      }

      const sendBody = { account_name: solTreasury.name, amount: "1000", max_fees: "7500", recipient: solCold.address, speed: "NORMAL" as const };
      const marked = runScale ? await demoClient.createTransaction({ ...sendBody, note: { title: "bench", content: "bench-ref-demo" } }) : null;
      if (marked) {
        try {
          // A session of its own, so that its first name look-up finds its directory of names empty, as the scale one does.
          const probeSession = await openSession(custody, custodyEnv(home, demo.ready.base_url, DEMO_OPERATOR, "demo-probe"));
          try {
            demoProbe = await probeWorkspace({
              client: demoClient,
              session: probeSession,
              accountName: solTreasury.name,
              searchRef: "bench-ref-demo",
              historyTransactionId: marked.id,
              render: () => renderAccountsView(demo.ready.base_url, DEMO_OPERATOR),
            });
          } finally {
            await probeSession.close();
          }
        } catch (error) {
          sections.push({ title: "Scale: demo baseline", figures: [], error: String(error) });
        }
      }

      if (full) {
        let bare: SpawnedProgram<{ url: string }> | null = null;
        await measured(sections, "Emulator HTTP throughput", async () => {
          bare = await spawnUntilReady<{ url: string }>([BARE_JSON_SERVER]);
          try {
            return await measureHttpThroughput({
              bareUrl: bare.ready.url,
              barePid: bare.pid,
              emulatorPid: demo.pid,
              emulatorBaseUrl: demo.ready.base_url,
              operator: DEMO_OPERATOR,
              accountId: solTreasury.id,
              sendBody,
              concurrency: CONFIG.concurrency,
              durationMs: CONFIG.loadMs,
            });
          } finally {
            peak.bareHttpServer = bare.peakRssKb();
            await bare.stop();
          }
        });
      }
      peak.custodyDemoSession = session.peakRssKb();
    } finally {
      await demoSession?.close();
      peak.emulatorDemo = demo.peakRssKb();
      await demo.stop();
    }
  }

  if (full || CONFIG.only === "tasks") {
    // A demo workspace of its own: the tasks send, stake and register an operator.
    const tasksDemo = await spawnEmulator(emulatorCli, ["--seed", "demo"]);
    const opened: StdioRpcSession[] = [];
    try {
      await measured(sections, TREASURY_TASKS_TITLE, async () => {
        const session = async (operator: string) => {
          const opening = await openSession(custody, custodyEnv(home, tasksDemo.ready.base_url, operator, `tasks-${operator}`));
          opened.push(opening);
          return opening;
        };
        return measureTreasuryTasks({
          sessions: { "treasury-bot": await session("treasury-bot"), "staking-bot": await session("staking-bot") },
          controlUrl: tasksDemo.ready.control_url,
        });
      });
    } finally {
      for (const opening of opened) await opening.close();
      await tasksDemo.stop();
    }
  }

  if (runScale) {
    const scale = await spawnEmulator(emulatorCli, ["--seed", "empty", "--processing-delay-ms", "0"]);
    let scaleSession: StdioRpcSession | null = null;
    try {
      await measured(sections, "Scale", async () => {
        const base = scale.ready.base_url;
        const agent = new Agent({ keepAlive: true });
        await registerOperator(agent, base, scale.ready.control_url, SCALE_OPERATOR);
        agent.destroy();
        // The write path before and after the seed: a send approved at once, then signed and broadcast.
        const sender = await createSendingAccount(scale.ready.control_url, SCALE_OPERATOR, "write-path");
        const load = () =>
          runLoad({
            url: `${base}/transactions`,
            method: "POST",
            headers: { "x-vendor-api-user": SCALE_OPERATOR },
            body: (index) => ({
              account_name: sender.name,
              amount: "1000",
              max_fees: "7500",
              recipient: OUTSIDE_SOLANA,
              speed: "NORMAL",
              note: { title: "write path", content: `load ${index}` },
            }),
            concurrency: 16,
            durationMs: 3000,
            warmupMs: 500,
          });
        const client = new CustodyClient({ baseUrl: base, operator: SCALE_OPERATOR, timeoutMs: 120_000 });
        const held = async () => (await client.searchTransactions({ page: 1, page_size: 1 })).page_info.count;
        const before = await load();
        const heldBefore = await held();
        const seeded: SeededScale = await seedScaleWorkspace({
          controlUrl: scale.ready.control_url,
          operator: SCALE_OPERATOR,
          accounts: CONFIG.scaleAccounts,
          transactions: CONFIG.scaleTransactions,
        });
        scaleSession = await openSession(custody, custodyEnv(home, base, SCALE_OPERATOR, "scale"));
        const session = scaleSession;
        const probe = await probeWorkspace({
          client,
          session,
          accountName: seeded.lastAccountName,
          searchRef: seeded.searchRef,
          historyTransactionId: seeded.historyTransactionId,
          render: () => renderAccountsView(base, SCALE_OPERATOR),
        });
        const names = nameOverGenerationsFigures(
          await measureNameOverGenerations({
            custody,
            baseUrl: base,
            operator: SCALE_OPERATOR,
            accountName: seeded.lastAccountName,
            repeats: 100,
            stdioEnv: custodyEnv(home, base, SCALE_OPERATOR, "names-stdio"),
          }),
          probe.toolGetAccountByNameFirstMs,
          probe.accountsCount.toLocaleString("en-US"),
        );
        const heldAfter = await held();
        const after = await load();
        const writePath: WritePath = { before, after, heldBefore, heldAfter };
        peak.custodyScaleSession = session.peakRssKb();
        peak.emulatorScale = scale.peakRssKb();
        if (!demoProbe) throw new Error("the demo baseline of the scale figures was not measured");
        return scaleSection({
          seeded,
          scale: probe,
          demo: demoProbe,
          writePath,
          names,
          peakRssKb: { emulator: peak.emulatorScale, mcpSession: peak.custodyScaleSession },
        });
      });
    } finally {
      peak.custodyScaleSession ??= (scaleSession as StdioRpcSession | null)?.peakRssKb() ?? null;
      await (scaleSession as StdioRpcSession | null)?.close();
      peak.emulatorScale = scale.peakRssKb();
      await scale.stop();
    }
  }

  if (full || CONFIG.only === "intents") {
    const store = await spawnEmulator(emulatorCli, ["--seed", "demo", "--processing-delay-ms", "0"]);
    try {
      await measured(sections, OPEN_INTENTS_TITLE, async () => {
        const recipient = await solColdAddress(store.ready.base_url);
        return measureOpenIntents({
          baseUrl: store.ready.base_url,
          operator: DEMO_OPERATOR,
          recipient,
          workDir: work,
          open: CONFIG.openIntents,
          dryRuns: CONFIG.openIntentDryRuns,
        });
      });
    } finally {
      await store.stop();
    }
  }
  if (full || CONFIG.only === "store") {
    const store = await spawnEmulator(emulatorCli, ["--seed", "demo", "--processing-delay-ms", "0"]);
    try {
      await measured(sections, "Guard store", async () => {
        const solCold = { address: await solColdAddress(store.ready.base_url) };
        return measureGuardStoreScale({
          baseUrl: store.ready.base_url,
          operator: DEMO_OPERATOR,
          recipient: solCold.address,
          custodyBundle: custody,
          workDir: work,
          records: CONFIG.auditRecords,
          writes: CONFIG.auditWrites,
        });
      });
    } finally {
      await store.stop();
    }
  }
  if (full || CONFIG.only === "history") {
    const history = await spawnEmulator(emulatorCli, ["--seed", "demo", "--processing-delay-ms", "0"]);
    try {
      await measured(sections, ALONE.history, () =>
        measureWorkspaceHistory({
          baseUrl: history.ready.base_url,
          controlUrl: history.ready.control_url,
          operator: DEMO_OPERATOR,
          recipient: OUTSIDE_SOLANA,
          workDir: work,
          runs: CONFIG.historyRuns,
        }),
      );
    } finally {
      await history.stop();
    }
  }
  if (full) sections.push(memorySection(peak));
  if (full) await measured(sections, PG_TITLE, postgresStore);

  const report: BenchReport = {
    startedAt: startedAt.toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: machineOf(),
    sections,
  };
  mkdirSync(join(REPO_DIR, "test", "bench", "results"), { recursive: true });
  const document = existsSync(PERFORMANCE_DOC) ? readFileSync(PERFORMANCE_DOC, "utf8") : "# Performance\n";
  let markdown: string;
  let results = RESULTS_JSON;
  if (full) {
    markdown = reportMarkdown(report);
    writeFileSync(RESULTS_JSON, `${JSON.stringify({ config: CONFIG, ...report }, null, 2)}\n`);
    writeFileSync(PERFORMANCE_DOC, spliceResults(document, markdown));
  } else {
    const only = CONFIG.only as Alone;
    const heading = ALONE[only];
    const intro = `_${machineLine(report)} This section alone (\`CUSTODY_BENCH_ONLY=${only} pnpm bench\`); the other tables are from the last full run._`;
    markdown = report.sections.map((section) => sectionMarkdown(section, section.title.startsWith(heading) ? intro : undefined)).join("\n");
    results = join(REPO_DIR, "test", "bench", "results", `latest-${only}.json`);
    writeFileSync(results, `${JSON.stringify({ config: CONFIG, ...report }, null, 2)}\n`);
    // Each section replaces its own table (by the start of its heading), the others of the last full run stay.
    let spliced = document;
    for (const section of report.sections) {
      // A title that carries figures ("Scale: 10,001 accounts, ...") replaces the table its fixed start names.
      const start = Object.values(ALONE).find((name) => section.title.startsWith(name)) ?? (section.title.split(" (")[0] as string);
      spliced = spliceSection(spliced, start, sectionMarkdown(section, section.title.startsWith(heading) ? intro : undefined).trimEnd());
    }
    writeFileSync(PERFORMANCE_DOC, spliced);
  }
  process.stdout.write(`${markdown}\nwritten: ${results}, ${PERFORMANCE_DOC}\n`);
  for (const dir of [work, home]) rmSync(dir, { recursive: true, force: true });
  expect(sections.filter((section) => section.error !== undefined).map((section) => `${section.title}: ${section.error}`)).toEqual([]);
}, 3_600_000);
