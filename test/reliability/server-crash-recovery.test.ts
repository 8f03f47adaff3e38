import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { buildSendRequest, FileGuardStore, sealKeyFromFile, type AuditSealKey, type GuardStore } from "@custody/shared";
import { openPostgresGuardStore } from "@custody/shared/postgres-store";
import type { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../../mcp-server/test/harness/built-bundle.js";
import { control } from "../../mcp-server/test/harness/control-plane.js";
import { accountNamed, DEMO, directClient } from "../../mcp-server/test/harness/demo-workspace.js";
import { startHoldingProxy, type HoldingProxy, type HoldRule } from "../../mcp-server/test/harness/holding-proxy.js";
import { call, connectSession, startTestEmulator, testClient, testContext } from "../../mcp-server/test/harness/mcp-harness.js";
import { TestClock } from "../../mcp-server/test/harness/test-clock.js";
import { toolTour } from "../../mcp-server/test/harness/tool-tour.js";
import { childHome, tempDir } from "../../mcp-server/test/harness/temp-dirs.js";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";

// The built MCP server is killed with SIGKILL while a loopback proxy holds its write's POST; the
// proxy then passes the POST on (the write is applied) or drops it (it never is). A new process on
// the same audit log must find what happened from what the store kept before the POST, record it,
// and never offer the write again as if nothing had been sent.

let emulator: RunningEmulator;
let bundle: string;

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
}, 120_000);
afterAll(async () => {
  await emulator?.close();
});

interface RunningServer {
  client: Client;
  pid: number;
  /** Resolves when the process is gone. */
  exited: Promise<void>;
}

async function startServer(baseUrl: string, operator: string, store: GuardStoreAt): Promise<RunningServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle],
    env: { PATH: process.env.PATH ?? "", ...store.home, CUSTODY_BASE_URL: baseUrl, CUSTODY_OPERATOR: operator, CUSTODY_STORE: store.location },
    stderr: "pipe",
  });
  const client = testClient();
  const exited = new Promise<void>((resolve) => (client.onclose = resolve));
  await client.connect(transport);
  if (transport.pid === null) throw new Error("the server has no pid");
  return { client, pid: transport.pid, exited };
}

interface AuditLine {
  event: string;
  transaction_id?: number;
  details?: Record<string, unknown>;
}

/** A guard's store a server is started on: its location (a file or a database URL) and its records as the file log writes them. */
interface GuardStoreAt {
  location: string;
  records(): AuditLine[];
  /** A database is opened when the server starts; a file on the first call. */
  openedAtStart: boolean;
  /** The machine's user the servers run as: one HOME for every start, so a restart finds the store's seal key. */
  home: { HOME: string; TMPDIR: string };
  /** The store opened in this process, on the clock given, with the servers' seal key (a server running beside them). */
  open(now: () => Date): Promise<GuardStore>;
}

/** The seal key a server started with this HOME uses (created by whichever opens the store first). */
function sealKeyOf(home: { HOME: string }): AuditSealKey {
  return sealKeyFromFile(join(home.HOME, ".custody-mcp", "audit-seal.key"));
}

function parsedLines(text: string): AuditLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as AuditLine);
}

function fileStore(): GuardStoreAt {
  const path = join(tempDir("custody-crash-audit-"), "audit.jsonl");
  const home = childHome();
  return {
    location: path,
    records: () => (existsSync(path) ? parsedLines(readFileSync(path, "utf8")) : []),
    openedAtStart: false,
    home,
    open: async (now) => new FileGuardStore(path, now, { sealKey: sealKeyOf(home) }),
  };
}

function postgresStore(cluster: PostgresCluster): GuardStoreAt {
  const url = cluster.createDatabase("crash");
  const database = url.split("/").at(-1) as string;
  const home = childHome();
  return {
    location: url,
    records: () => parsedLines(cluster.psql(database, "SELECT line FROM custody_audit ORDER BY seq")),
    openedAtStart: true,
    home,
    open: (now) => openPostgresGuardStore(url, { now, sealKey: sealKeyOf(home), retryForMs: 0 }),
  };
}

/** Waits until the store holds a record the predicate accepts (the state a process writes), and returns it. */
async function recordAppears(store: GuardStoreAt, accept: (line: AuditLine) => boolean, timeoutMs = 30_000): Promise<AuditLine> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = store.records().find(accept);
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`no such audit record within ${timeoutMs} ms:\n${JSON.stringify(store.records())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function newestTransactionId(): Promise<number> {
  const all = await directClient(emulator, DEMO.treasuryBot).searchAllTransactions({});
  return all.reduce((max, tx) => Math.max(max, tx.id), 0);
}

/** The dry run's finding of a code, from its structured content (checks that did not pass). */
function findingOf(
  answer: { structured: Record<string, unknown> },
  code: string,
): { code: string; message: string; facts: Record<string, string> } | undefined {
  const checks = (answer.structured.checks ?? []) as { code: string; message: string; facts: Record<string, string> }[];
  return checks.find((check) => check.code === code);
}

interface WriteCase {
  tool: string;
  operator: string;
  args: Record<string, unknown>;
  /** The POST's path below the base URL (a prefix). */
  path: string;
  /** An approval applies to the transaction it names; every other write creates one. */
  approves?: number;
}

const TOOLS = [
  "create_transaction",
  "approve_transaction",
  "solana_create_stake",
  "solana_deactivate_stake",
  "solana_withdraw_stake",
  "solana_delegate_stake",
  "solana_split_stake",
  "solana_split_deactivate_stake",
  "polkadot_bond_extra",
  "polkadot_unbond",
  "polkadot_rebond",
  "polkadot_withdraw_unbonded",
  "polkadot_set_payee",
  "ethereum_stake",
] as const;

/** A transaction waiting for treasury-bot's approval: sol-treasury's rule made to need both bots, and staking-bot's send. */
async function pendingForTreasuryBot(): Promise<number> {
  const account = await accountNamed(emulator, DEMO.solTreasury);
  const bots = [DEMO.treasuryBot, DEMO.stakingBot].map((username) => ({ username, is_api: true }));
  await control(emulator, "PUT", `/accounts/${account.id}/governance`, {
    ...account.governance_rules,
    transaction: { creators: bots, steps: [{ quorum: 2, approvers: bots }] },
  });
  const staking = directClient(emulator, DEMO.stakingBot);
  const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
  const currency = await staking.getCurrency(account.currency);
  const body = buildSendRequest({
    network: "Solana",
    account_name: account.name,
    recipient,
    amount: 2_000_000_000n,
    max_fees: 10_000n,
    speed: "NORMAL",
    currency,
  });
  const created = await staking.createTransaction(body);
  expect(created.status).toBe("PENDING_APPROVAL");
  return created.id;
}

/** Deactivates the stake in this epoch, so that it can be delegated again; waits until the service lists the action. */
async function deactivatingStake(accountId: number, uid: string): Promise<void> {
  const staking = directClient(emulator, DEMO.stakingBot);
  await staking.deactivateSolanaStake(accountId, uid);
  for (let round = 0; round < 200; round += 1) {
    await control(emulator, "POST", "/process");
    if ((await staking.getSolanaStake(accountId, uid)).actions.some((action) => action.endsWith("/delegate"))) return;
  }
  throw new Error(`stake ${uid} was not deactivating after its deactivation was processed`);
}

/**
 * The case of one kind of write, on the demo workspace as it is right after a reset: the tool
 * tour's call, except an approval (of a transaction waiting for this operator) and a delegation
 * (of a stake deactivated in this epoch, the only one the service lets be delegated).
 */
async function writeCase(tool: (typeof TOOLS)[number]): Promise<WriteCase> {
  const tour = (await toolTour(emulator)).find((entry) => entry.tool === tool);
  if (tour === undefined) throw new Error(`the tool tour has no ${tool}`);
  const sol = await accountNamed(emulator, DEMO.solTreasury);
  const path = tool.startsWith("solana_") ? `/solana/accounts/${sol.id}/stakes` : "/transactions";
  if (tool === "approve_transaction") {
    const pending = await pendingForTreasuryBot();
    return { tool, operator: tour.operator, args: { transaction_id: pending }, path: `/transactions/${pending}/approve`, approves: pending };
  }
  if (tool === "solana_delegate_stake") await deactivatingStake(sol.id, tour.args.stake_uid as string);
  return { tool, operator: tour.operator, args: tour.args, path };
}

/**
 * Dry run, then the confirmation whose POST the proxy holds; the server is killed with SIGKILL
 * while it waits for the answer. Returns the reference of the write the dry run prepared.
 */
async function killDuringPost(proxy: HoldingProxy, write: WriteCase, store: GuardStoreAt, rule: HoldRule, beforeConfirm: () => Promise<void>): Promise<string> {
  const server = await startServer(proxy.baseUrl, write.operator, store);
  const dry = await call(server.client, write.tool, write.args);
  expect(dry.structured.status, `${write.tool}: ${dry.text}`).toBe("dry_run");
  await beforeConfirm();
  proxy.hold("POST", write.path, rule);
  const confirming = server.client.callTool({ name: write.tool, arguments: { ...write.args, confirmation_token: dry.token } }).catch(() => null);
  await proxy.held();
  // The reservation was written before the POST, with what identifies the write.
  const reserved = store.records().find((line) => line.event === "reserved");
  expect(reserved?.details?.recognition, write.tool).toBeDefined();
  process.kill(server.pid, "SIGKILL");
  await server.exited;
  await confirming;
  return dry.structured.reference as string;
}

interface Crash {
  write: WriteCase;
  store: GuardStoreAt;
  /** The reference of the write the dry run prepared. */
  reference: string;
  /** The transaction the write became (null when its POST never reached the service). */
  applied: number | null;
  /** The transactions created since just before the write. */
  createdSince(): Promise<number[]>;
}

/**
 * Resets the demo workspace, kills the server during the POST of this kind of write (the proxy then
 * passes it on, or drops it), and hands the test what happened; `beforeConfirm` runs between its dry run and its confirmation.
 */
async function afterCrash(
  tool: (typeof TOOLS)[number],
  rule: HoldRule,
  then: (crash: Crash) => Promise<void>,
  store: GuardStoreAt = fileStore(),
  beforeConfirm: () => Promise<void> = async () => {},
): Promise<void> {
  await control(emulator, "POST", "/reset", { seed: "demo" });
  const write = await writeCase(tool);
  const proxy = await startHoldingProxy(emulator);
  try {
    const before = await newestTransactionId();
    const createdSince = async () =>
      (await directClient(emulator, DEMO.stakingBot).searchAllTransactions({})).filter((tx) => tx.id > before).map((tx) => tx.id);
    const reference = await killDuringPost(proxy, write, store, rule, beforeConfirm);
    proxy.release();
    await proxy.forwarded();
    const applied = rule.kind === "drop" ? null : (write.approves ?? (await createdSince())[0] ?? null);
    await then({ write, store, reference, applied, createdSince });
  } finally {
    await proxy.close();
  }
}

/** A new server process on the same audit log, straight on the emulator; closed after `use`. */
async function restartedOn(crash: Crash, use: (client: Client) => Promise<void>): Promise<void> {
  const restarted = await startServer(emulator.baseUrl, crash.write.operator, crash.store);
  try {
    await use(restarted.client);
  } finally {
    await restarted.client.close();
  }
}

/** Opens the store (at start, or with the first call) and waits for the look-up it resumes to record the write's outcome. */
async function resumedConclusion(client: Client, crash: Crash): Promise<AuditLine> {
  if (!crash.store.openedAtStart) expect((await call(client, "list_accounts")).isError).toBe(false);
  return recordAppears(crash.store, (line) => line.event === "resolved" && line.details?.reference === crash.reference);
}

/** The case: the restarted process finds the stake that was created, records it, and blocks the same stake naming it. */
async function stakeFoundAfterRestart(crash: Crash): Promise<void> {
  expect(crash.applied).not.toBeNull();
  await restartedOn(crash, async (client) => {
    expect(await resumedConclusion(client, crash)).toMatchObject({ transaction_id: crash.applied, details: { outcome: "found", stage: "background_lookup" } });
    // Its process stopped before any answer: list_activity still lists it, concluded in the window by the look-up.
    const activity = await call(client, "list_activity", {});
    expect(activity.structured.uncertain_writes).toEqual([
      expect.objectContaining({
        reference: crash.reference,
        outcome: "found",
        transaction_id: crash.applied,
        answer_lost_at: null,
        answer: null,
        concluded_at: expect.any(String),
      }),
    ]);
    expect(activity.text).toMatch(
      new RegExp(`${crash.reference} ${crash.write.tool} sent \\S+Z, no answer recorded: found as transaction ${crash.applied} at `),
    );
    const again = await call(client, crash.write.tool, crash.write.args);
    expect(again.structured.status).toBe("blocked");
    expect(findingOf(again, "DUPLICATE_OF_RECENT")?.facts).toMatchObject({ earlier_transaction_id: crash.applied, repeat_of: String(crash.applied) });
    expect(again.text).not.toContain("is being sent");
    expect(again.token).toBeUndefined();
  });
  // One stake, never two.
  expect(await crash.createdSince()).toEqual([crash.applied]);
}

describe("kill -9 of the MCP server while its write's POST is held, then a restart on the same store", () => {
  it(
    "the issue's stake: the restarted process finds the stake that was created, records " + "it, and blocks the same stake as DUPLICATE_OF_RECENT naming it",
    async () => {
      await afterCrash("solana_create_stake", { kind: "until_released" }, stakeFoundAfterRestart);
    },
    120_000,
  );

  it("the same with the guard's state in PostgreSQL", async () => {
    const cluster = await startPostgresCluster({ durable: false });
    try {
      await afterCrash("solana_create_stake", { kind: "until_released" }, stakeFoundAfterRestart, postgresStore(cluster));
    } finally {
      cluster.stop();
    }
  }, 180_000);

  it(
    "a POST that never reached the service: the dry run says it may already be applied and what it " +
      "found, and repeating it takes the acknowledgement that it may pay twice",
    async () => {
      await afterCrash("solana_create_stake", { kind: "drop" }, async (crash) => {
        expect(await crash.createdSince()).toEqual([]);
        await restartedOn(crash, async (client) => {
          const again = await call(client, crash.write.tool, crash.write.args);
          expect(again.structured.status).toBe("blocked");
          const duplicate = findingOf(again, "DUPLICATE_OF_RECENT");
          expect(duplicate?.facts).toMatchObject({ repeat_of: `${crash.reference}:may-pay-twice`, may_pay_twice: "true" });
          expect(duplicate?.facts).not.toHaveProperty("earlier_transaction_id");
          expect(duplicate?.message).toContain("may already be applied");
          expect(duplicate?.message).toContain("no transaction matching it exists yet");
          expect(duplicate?.message).toContain("may pay twice");

          // Its reference alone is not the acknowledgement.
          const bare = await call(client, crash.write.tool, { ...crash.write.args, repeat_of: crash.reference });
          expect(bare.structured.status).toBe("blocked");
          expect(findingOf(bare, "DUPLICATE_OF_RECENT")?.message).toContain("without acknowledging that it may pay twice");

          const acknowledged = await call(client, crash.write.tool, { ...crash.write.args, repeat_of: `${crash.reference}:may-pay-twice` });
          expect(acknowledged.structured.status, acknowledged.text).toBe("dry_run");
          expect(acknowledged.text).toContain("MAY PAY TWICE");
        });
      });
    },
    120_000,
  );

  it("a stake of another amount made meanwhile is named as a candidate, never taken for the write whose POST never arrived", async () => {
    await afterCrash("solana_create_stake", { kind: "drop" }, async (crash) => {
      const sol = await accountNamed(emulator, DEMO.solTreasury);
      const other = await directClient(emulator, DEMO.stakingBot).createSolanaStake(sol.id, {
        amount: 3_000_000_000n,
        validator: crash.write.args.validator as string,
      });
      await restartedOn(crash, async (client) => {
        const again = await call(client, crash.write.tool, crash.write.args);
        const duplicate = findingOf(again, "DUPLICATE_OF_RECENT");
        expect(duplicate?.facts).toMatchObject({ may_pay_twice: "true" });
        expect(duplicate?.facts).not.toHaveProperty("earlier_transaction_id");
        expect(duplicate?.message).toContain(
          `may already be applied; transactions ${other.id} (amount 3000000000 (asked 5000000000)) could be it, none exactly and alone`,
        );
      });
      expect(crash.store.records().filter((line) => line.event === "resolved")).toEqual([]);
    });
  }, 120_000);

  it(
    "a graceful stop (SIGTERM) after the log grew past the ledger it saved: the restarted process still " +
      "resumes the look-up of the write whose POST was held, from what the ledger kept",
    async () => {
      await control(emulator, "POST", "/reset", { seed: "demo" });
      const write = await writeCase("create_transaction");
      const store = fileStore();
      const proxy = await startHoldingProxy(emulator);
      try {
        const before = await newestTransactionId();
        const server = await startServer(proxy.baseUrl, write.operator, store);
        const dry = await call(server.client, write.tool, write.args);
        proxy.hold("POST", write.path, { kind: "until_released" });
        const confirming = server.client.callTool({ name: write.tool, arguments: { ...write.args, confirmation_token: dry.token } }).catch(() => null);
        await proxy.held();
        const text = readFileSync(store.location, "utf8");
        const reservedLine = text.split("\n").findIndex((line) => line.includes('"event":"reserved"'));
        const reservedEnd = Buffer.byteLength(
          `${text
            .split("\n")
            .slice(0, reservedLine + 1)
            .join("\n")}\n`,
        );
        // Dry runs of other amounts until the log has grown enough for the ledger to be saved past the reservation.
        const savedPast = () => {
          const ledger = `${store.location}.ledger.json`;
          return (
            existsSync(ledger) &&
            ((JSON.parse(readFileSync(ledger, "utf8")) as { checkpoint: { offset: number } | null }).checkpoint?.offset ?? 0) >= reservedEnd
          );
        };
        for (let index = 1; !savedPast(); index += 1) {
          if (index > 2_000) throw new Error("the ledger was never saved past the reservation");
          expect((await call(server.client, write.tool, { ...write.args, amount: `0.${String(index).padStart(6, "0")}1` })).structured.status).toBe("dry_run");
        }
        process.kill(server.pid, "SIGTERM");
        await server.exited;
        await confirming;
        // The POST reaches the service only now: its answer is lost with the process.
        proxy.release();
        await proxy.forwarded();
        const created = (await directClient(emulator, DEMO.stakingBot).searchAllTransactions({})).filter((tx) => tx.id > before).map((tx) => tx.id);
        expect(created).toHaveLength(1);
        const crash: Crash = { write, store, reference: dry.structured.reference as string, applied: created[0] ?? null, createdSince: async () => created };
        await restartedOn(crash, async (client) => {
          expect(await resumedConclusion(client, crash)).toMatchObject({
            transaction_id: crash.applied,
            details: { outcome: "found", stage: "background_lookup" },
          });
        });
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );

  it("every kind of write: after the restart the write that was applied is found from what the store kept, recorded, and not offered again", async () => {
    const outcomes: Record<string, string> = {};
    for (const tool of TOOLS) {
      await afterCrash(tool, { kind: "until_released" }, async (crash) => {
        expect(crash.applied, tool).not.toBeNull();
        await restartedOn(crash, async (client) => {
          const resolved = await resumedConclusion(client, crash);
          expect({ tool, transaction_id: resolved.transaction_id, outcome: resolved.details?.outcome }).toEqual({
            tool,
            transaction_id: crash.applied,
            outcome: "found",
          });
          // The same write is never prepared again: it is blocked as a duplicate of the transaction it became.
          const again = await call(client, tool, crash.write.args);
          outcomes[tool] =
            `${String(again.structured.status)}, duplicate of ${findingOf(again, "DUPLICATE_OF_RECENT")?.facts.earlier_transaction_id ?? "nothing"}`;
          expect(outcomes[tool], again.text).toBe(`blocked, duplicate of ${crash.applied}`);
        });
      });
    }
    expect(Object.keys(outcomes)).toEqual([...TOOLS]);
  }, 600_000);
});

describe("kill -9 of the MCP server while its write's POST is held, beside a server that keeps running on the same store", () => {
  /**
   * The server that stays runs in this process, started between the dry run and the confirmation (its
   * start finds nothing to resume), sweeping every 50 ms. Once its store's clock is past when the dead
   * sender would have concluded the write, it looks the write up and records it, with no restart.
   */
  async function concludedBeside(store: GuardStoreAt): Promise<void> {
    const clock = new TestClock();
    let opened: GuardStore | undefined;
    let beside: ReturnType<typeof testContext> | undefined;
    const startBeside = async () => {
      opened = await store.open(clock.now);
      beside = testContext(emulator, {
        operator: DEMO.stakingBot,
        store: opened,
        clock,
        lookupFirstDelayMs: 100,
        lookupHorizonMs: 500,
        lookupSweepMs: 50,
      });
      await beside.ctx.road.lookupsSettled();
    };
    try {
      await afterCrash(
        "solana_create_stake",
        { kind: "until_released" },
        async (crash) => {
          expect(crash.write.operator).toBe(DEMO.stakingBot);
          expect(crash.applied).not.toBeNull();
          if (beside === undefined) throw new Error("the server beside was not started");
          // An hour on: the dead sender's records have been quiet longer than any live sender's (twice the horizon and thirty request timeouts).
          clock.advance(Date.now() + 3_600_000 - clock.now().getTime());
          expect(await recordAppears(crash.store, (line) => line.event === "resolved" && line.details?.reference === crash.reference)).toMatchObject({
            transaction_id: crash.applied,
            details: { outcome: "found", stage: "background_lookup" },
          });
          const session = await connectSession(beside.ctx);
          try {
            const activity = await call(session.client, "list_activity", {});
            expect(activity.structured.uncertain_writes).toEqual([
              expect.objectContaining({ reference: crash.reference, outcome: "found", transaction_id: crash.applied }),
            ]);
          } finally {
            await session.close();
          }
          expect(await crash.createdSince()).toEqual([crash.applied]);
        },
        store,
        startBeside,
      );
    } finally {
      await beside?.ctx.road.close();
      await opened?.close();
    }
  }

  it("the server beside looks up the dead one's write at its next sweep and records the stake it became", async () => {
    await concludedBeside(fileStore());
  }, 120_000);

  it("the same with the guard's state in PostgreSQL (a replica beside the one that died)", async () => {
    const cluster = await startPostgresCluster({ durable: false });
    try {
      await concludedBeside(postgresStore(cluster));
    } finally {
      cluster.stop();
    }
  }, 180_000);
});
