import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { CustodyClient, readSealKeyFile, type AuditRecord } from "@custody/shared";
import { openPostgresGuardStore } from "@custody/shared/postgres-store";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control } from "../contract/emulator-harness.js";
import { buildCustodyServer } from "../bench/support/program-bundles.js";
import { freePort } from "../support/free-port.js";
import { startNginxBalancer, type NginxBalancer } from "../support/nginx-balancer.js";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";
import { startReplica, type ReplicaProcess } from "../support/replica-process.js";
import { resourceUpdatesOf } from "../support/resource-updates.js";
import { openTeamSession, sessionsOnEach, type TeamSession } from "../support/team-session.js";

type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

const TOKEN = "team-bearer-token-shared-by-every-replica";
const OPERATOR = "treasury-bot";
const LAMPORTS_PER_DAY = 1_000_000_000n;

let cluster: PostgresCluster;
let emulator: RunningEmulator;
let bundle: string;
let storeUrl: string;
let replicas: ReplicaProcess[] = [];
let balancer: NginxBalancer;
let recipient: string;
let sealKeyFile: string;

beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
  emulator = await startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10, log: () => {} });
  const work = mkdtempSync(join(tmpdir(), "custody-team-"));
  bundle = buildCustodyServer(join(work, "custody-mcp.js"));
  storeUrl = cluster.createDatabase("team");
  const secretFile = join(work, "token-secret");
  writeFileSync(secretFile, randomBytes(32), { mode: 0o600 });
  // Kept beside the token secret, as docs/deployment.md says: the seal key every replica (and this test's look at the store) shares.
  sealKeyFile = join(work, "audit-seal-key");
  writeFileSync(sealKeyFile, randomBytes(32), { mode: 0o600 });
  const policyFile = join(work, "policy.json");
  writeFileSync(policyFile, JSON.stringify({ limits: { solana_testnet: { max_per_day: { base_units: LAMPORTS_PER_DAY.toString() } } } }));
  const balancerPort = await freePort();
  const env = {
    HOME: work,
    CUSTODY_BASE_URL: emulator.baseUrl,
    CUSTODY_OPERATOR: OPERATOR,
    CUSTODY_POLICY: policyFile,
    CUSTODY_STORE: storeUrl,
    CUSTODY_TOKEN_SECRET_FILE: secretFile,
    CUSTODY_AUDIT_SEAL_KEY_FILE: sealKeyFile,
    CUSTODY_MCP_TOKEN: TOKEN,
    CUSTODY_MCP_PUBLIC_ORIGIN: `http://127.0.0.1:${balancerPort}`,
    // Subscribed resources are read once, then not again within a test: a change a subscriber hears came on the change bus.
    CUSTODY_MCP_WATCH_INTERVAL_SECONDS: "3600",
  };
  replicas = [await startReplica(bundle, "r1", await freePort(), env), await startReplica(bundle, "r2", await freePort(), env)];
  balancer = await startNginxBalancer(replicas, balancerPort);
  const accounts = await new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR }).listAllAccounts();
  recipient = accounts.find((account) => account.name === "sol-cold")?.address ?? "";
}, 180_000);

afterAll(async () => {
  await balancer?.stop();
  for (const replica of replicas) await replica.stop();
  await emulator?.close();
  cluster?.stop();
});

/** A send of `lamports` from the demo treasury: distinct amounts make distinct writes. */
const send = (lamports: bigint) => ({ account: "sol-treasury", recipient, amount: lamports.toString(), unit: "lamport" });

async function transactionsOf(reference: string): Promise<number[]> {
  const found = await new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR }).searchAllTransactions({ label: reference });
  return found.map((transaction) => transaction.id);
}

/**
 * A write confirmed through replica r1 (2026-07-28, straight to it) is heard on replica r2 by a
 * subscriptions/listen stream and a 2025 session subscribed to the sending account: the change
 * travels from r1 to r2 over PostgreSQL's NOTIFY.
 */
async function expectWriteOnR1HeardOnR2(lamports: bigint): Promise<void> {
  const [r1, r2] = replicas as [ReplicaProcess, ReplicaProcess];
  const direct = (replica: ReplicaProcess, revision: "2025-11-25" | "2026-07-28") => openTeamSession(`http://127.0.0.1:${replica.port}/mcp`, TOKEN, revision);
  const [writer, listener, subscriber] = [await direct(r1, "2026-07-28"), await direct(r2, "2026-07-28"), await direct(r2, "2025-11-25")];
  try {
    const treasury = (await new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR }).listAllAccounts()).find(
      (account) => account.name === "sol-treasury",
    );
    const uri = `custody://accounts/${treasury?.id}`;
    const [listened, subscribed] = [resourceUpdatesOf(listener.client), resourceUpdatesOf(subscriber.client)];
    const stream = await listener.client.listen({ resourceSubscriptions: [uri] });
    await subscriber.client.subscribeResource({ uri });
    const heard = [listened.next(uri), subscribed.next(uri)];
    const dry = await writer.call("create_transaction", send(lamports));
    expect((await writer.call("create_transaction", { ...send(lamports), confirmation_token: dry.token })).structured.status).toBe("submitted");
    await Promise.all(heard);
    await stream.close();
  } finally {
    for (const session of [writer, listener, subscriber]) await session.close();
  }
}

/** The chain as export-audit writes it (the bundle's own command). */
function exportedChain(): string {
  const exported = spawnSync(process.execPath, [bundle, "export-audit", "--store", storeUrl], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  expect(exported.status, exported.stderr).toBe(0);
  expect(exported.stderr).not.toContain(cluster.password);
  return exported.stdout;
}

function chain(text = exportedChain()): AuditRecord[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditRecord);
}

function recordsOf(records: AuditRecord[], event: string, reference: string): AuditRecord[] {
  return records.filter((record) => record.event === event && record.details?.reference === reference);
}

describe("replicas behind nginx sharing one PostgreSQL store", () => {
  it("never pass a daily limit together: concurrent confirmations on both replicas", async () => {
    const sessions = await sessionsOnEach(balancer.url, TOKEN, ["r1", "r2"], 4);
    try {
      const amounts = sessions.map((_, index) => 300_000_000n + BigInt(index) * 10_000_000n);
      const dryRuns = await Promise.all(sessions.map((session, index) => session.call("create_transaction", send(amounts[index] as bigint))));
      for (const dry of dryRuns) expect(dry.structured.status, dry.text).toBe("dry_run");
      const confirmed = await Promise.all(
        sessions.map((session, index) => session.call("create_transaction", { ...send(amounts[index] as bigint), confirmation_token: dryRuns[index]?.token })),
      );
      const submitted = confirmed.filter((answer) => answer.structured.status === "submitted");
      const refused = confirmed.filter((answer) => answer.structured.status !== "submitted");
      expect(submitted.length).toBeGreaterThanOrEqual(2);
      for (const answer of refused) {
        expect(answer.structured.status, answer.text).toBe("blocked");
        expect(answer.text).toContain("POLICY_MAX_PER_DAY");
      }
      const records = chain();
      const committed = submitted.map((answer) =>
        BigInt(recordsOf(records, "reserved", answer.structured.reference as string)[0]?.details?.policy_amount as string),
      );
      expect(committed.reduce((sum, amount) => sum + amount, 0n)).toBeLessThanOrEqual(LAMPORTS_PER_DAY);
      const store = await openPostgresGuardStore(storeUrl, { sealKey: readSealKeyFile(sealKeyFile) });
      expect(await store.committedSince({ scope: { kind: "operator", operator: OPERATOR }, currency: "solana_testnet", since: new Date(0) })).toBe(
        committed.reduce((sum, amount) => sum + amount, 0n),
      );
      await store.close();
      for (const [index, answer] of confirmed.entries()) {
        expect(await transactionsOf(dryRuns[index]?.structured.reference as string)).toHaveLength(answer.structured.status === "submitted" ? 1 : 0);
      }
    } finally {
      for (const session of sessions) await session.close();
    }
  });

  it("names a database it cannot reach without its password (verify-audit, export-audit)", () => {
    const unreachable = storeUrl.replace(`:${cluster.port}/`, ":1/");
    for (const command of ["verify-audit", "export-audit"]) {
      const run = spawnSync(process.execPath, [bundle, command, "--store", unreachable], { encoding: "utf8" });
      expect(run.status, command).toBe(2);
      expect(run.stdout + run.stderr).toMatch(/postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/.*ECONNREFUSED/);
      expect(run.stdout + run.stderr).not.toContain(cluster.password);
    }
  });

  it("refuses on one replica a token already used on the other", async () => {
    const [first, second] = await sessionsOnEach(balancer.url, TOKEN, ["r1", "r2"], 1);
    try {
      const args = send(1_111n);
      const dry = await (first as TeamSession).call("create_transaction", args);
      const token = dry.token;
      expect((await (first as TeamSession).call("create_transaction", { ...args, confirmation_token: token })).structured.status).toBe("submitted");
      const again = await (second as TeamSession).call("create_transaction", { ...args, confirmation_token: token });
      expect(again.structured.status).toBe("refused");
      expect(again.text).toMatch(/already used \(a confirmation submits once\); it created transaction \d+/);
      expect(await transactionsOf(dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await first?.close();
      await second?.close();
    }
  });

  it("sends once an identical write confirmed on both replicas: the other is DUPLICATE_OF_RECENT", async () => {
    const sessions = await sessionsOnEach(balancer.url, TOKEN, ["r1", "r2"], 1);
    const [first, second] = sessions.sort((a, b) => a.replica.localeCompare(b.replica)) as [TeamSession, TeamSession];
    const database = storeUrl.split("/").at(-1) as string;
    try {
      const args = send(2_222n);
      const dry = await first.call("create_transaction", args);
      // The first confirmation's POST is slow: it is still being sent while the other replica confirms the same write.
      await control(emulator, "PUT", "/faults", { latency_ms: 1500, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      const confirming = first.call("create_transaction", { ...args, confirmation_token: dry.token });
      const reference = dry.structured.reference as string;
      for (
        let waited = 0;
        cluster.psql(database, `SELECT count(*) FROM custody_audit WHERE event = 'confirmed' AND line LIKE '%${reference}%'`).trim() === "0";
        waited += 50
      ) {
        if (waited > 10_000) throw new Error("the first confirmation never got past its consent");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const otherDry = await second.call("create_transaction", args);
      const other =
        otherDry.structured.status === "dry_run" ? await second.call("create_transaction", { ...args, confirmation_token: otherDry.token }) : otherDry;
      expect((await confirming).structured.status).toBe("submitted");
      expect(other.structured.status, other.text).toBe("blocked");
      expect(other.text).toContain("DUPLICATE_OF_RECENT");
      expect(await transactionsOf(reference)).toHaveLength(1);
      expect(await transactionsOf(otherDry.structured.reference as string)).toHaveLength(0);
    } finally {
      await control(emulator, "DELETE", "/faults");
      for (const session of sessions) await session.close();
    }
  });

  it("serves a 2026-07-28 client with no affinity at all: a dry run on one replica is confirmed on the other, sent once, on one chain", async () => {
    const direct = (replica: ReplicaProcess) => openTeamSession(`http://127.0.0.1:${replica.port}/mcp`, TOKEN, "2026-07-28");
    const [onR1, onR2, balanced] = [
      await direct(replicas[0] as ReplicaProcess),
      await direct(replicas[1] as ReplicaProcess),
      await openTeamSession(balancer.url, TOKEN, "2026-07-28"),
    ];
    try {
      expect(onR1.client.getProtocolEra()).toBe("modern");
      const args = send(3_333n);
      const dry = await onR1.call("create_transaction", args);
      expect(dry.structured.status, dry.text).toBe("dry_run");
      const confirmed = await onR2.call("create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      const reference = dry.structured.reference as string;
      expect(await transactionsOf(reference)).toHaveLength(1);
      const records = chain();
      expect(["confirmed", "reserved", "submitted"].map((event) => recordsOf(records, event, reference).length)).toEqual([1, 1, 1]);
      // Through nginx, where a request without a session id goes to any replica (round robin): every call answered alike.
      for (let call = 0; call < 4; call += 1) expect((await balanced.call("health_check", {})).structured.status).toBe("OK");
      const again = await balanced.call("create_transaction", { ...args, confirmation_token: dry.token });
      expect(again.structured.status).toBe("refused");
    } finally {
      for (const session of [onR1, onR2, balanced]) await session.close();
    }
  });

  it("tells a subscriber on one replica of a write confirmed through the other: the change bus over PostgreSQL LISTEN/NOTIFY", async () => {
    await expectWriteOnR1HeardOnR2(4_446n);
  });

  it("asks a 2026-07-28 person once with no affinity: the question from one replica, the answer on the other, sent once, on one chain", async () => {
    const [r1, r2] = replicas as [ReplicaProcess, ReplicaProcess];
    const manual = async (replica: ReplicaProcess) => {
      const client = new Client(
        { name: "manual", version: "0" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: false } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${replica.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
      );
      return client;
    };
    const [onR1, onR2] = [await manual(r1), await manual(r2)];
    const shown: string[] = [];
    const balanced = await openTeamSession(
      balancer.url,
      TOKEN,
      "2026-07-28",
      (message) => (shown.push(message), { action: "accept", content: { confirm: true } }),
    );
    try {
      const args = send(4_444n);
      const dry = await balanced.call("create_transaction", args);
      expect(dry.structured.status, dry.text).toBe("dry_run");
      const confirmation = { name: "create_transaction", arguments: { ...args, confirmation_token: dry.token } };
      const question = (await onR1.callTool(confirmation, { allowInputRequired: true })) as unknown as { resultType: string; requestState: string };
      expect(question.resultType).toBe("input_required");
      const answered = await onR2.callTool({
        ...confirmation,
        requestState: question.requestState,
        inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
      } as never);
      expect((answered.structuredContent as { status?: string }).status, JSON.stringify(answered.content)).toBe("submitted");
      const reference = dry.structured.reference as string;
      expect(await transactionsOf(reference)).toHaveLength(1);

      // Through nginx, round robin: the client answers the question and calls again, wherever each leg lands.
      const other = send(4_445n);
      const otherDry = await balanced.call("create_transaction", other);
      const confirmed = await balanced.call("create_transaction", { ...other, confirmation_token: otherDry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(shown).toHaveLength(1);
      const records = chain();
      for (const sent of [reference, otherDry.structured.reference as string]) {
        expect(await transactionsOf(sent)).toHaveLength(1);
        expect(["confirmed", "reserved", "submitted"].map((event) => recordsOf(records, event, sent).length)).toEqual([1, 1, 1]);
      }
    } finally {
      for (const client of [onR1, onR2]) await client.close();
      await balanced.close();
    }
  });

  it("asks a 2025-11-25 person once through elicitation/create on the replica the documented affinity routes their session to", async () => {
    const shown: string[] = [];
    const session = await openTeamSession(
      balancer.url,
      TOKEN,
      "2025-11-25",
      (message) => (shown.push(message), { action: "accept", content: { confirm: true } }),
    );
    try {
      const args = send(5_555n);
      const dry = await session.call("create_transaction", args);
      const confirmed = await session.call("create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(shown).toHaveLength(1);
      const reference = dry.structured.reference as string;
      expect(await transactionsOf(reference)).toHaveLength(1);
      expect(["confirmed", "reserved", "submitted"].map((event) => recordsOf(chain(), event, reference).length)).toEqual([1, 1, 1]);
    } finally {
      await session.close();
    }
  });

  it(
    "through kill -9 of a replica and a PostgreSQL restart during a soak of confirmed writes: " +
      "nothing acknowledged lost, nothing sent twice, one chain that verifies",
    async () => {
      const client = new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR });
      const lastBefore = Math.max(...(await client.searchAllTransactions()).map((transaction) => transaction.id));
      interface Outcome {
        reference: string;
        status: string;
        transactionId: number | null;
        replica: string;
        startedAt: number;
        endedAt: number;
      }
      const outcomes: Outcome[] = [];
      const confirming = new Map<string, number>();
      let interrupted = 0;
      let stopping = false;
      let amount = 10_000n;
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const reconnect = async (): Promise<TeamSession> => {
        for (let tries = 0; ; tries += 1) {
          try {
            return await openTeamSession(balancer.url, TOKEN);
          } catch (error) {
            if (tries > 200) throw error;
            await sleep(100);
          }
        }
      };
      const worker = async () => {
        let session = await reconnect();
        while (!stopping) {
          amount += 1n;
          const args = send(amount);
          let reference: string | null = null;
          const startedAt = Date.now();
          const replica = session.replica;
          try {
            const dry = await session.call("create_transaction", args);
            if (dry.structured.status !== "dry_run") throw new Error(`dry run ${dry.structured.status}: ${dry.text}`);
            reference = dry.structured.reference as string;
            confirming.set(replica, (confirming.get(replica) ?? 0) + 1);
            try {
              const confirmed = await session.call("create_transaction", { ...args, confirmation_token: dry.token });
              const transaction = confirmed.structured.transaction as { id?: number } | undefined;
              outcomes.push({
                reference,
                status: confirmed.structured.status ?? "none",
                transactionId: transaction?.id ?? null,
                replica,
                startedAt,
                endedAt: Date.now(),
              });
            } finally {
              confirming.set(replica, (confirming.get(replica) ?? 1) - 1);
            }
          } catch {
            interrupted += 1;
            if (reference !== null) outcomes.push({ reference, status: "interrupted", transactionId: null, replica, startedAt, endedAt: Date.now() });
            await session.close();
            session = await reconnect();
          }
        }
        await session.close();
      };
      // Each POST is slowed down, so a confirmation is under way most of the time.
      await control(emulator, "PUT", "/faults", { latency_ms: 150, methods: ["POST"], path_prefix: "/transactions", remaining: 100_000 });
      const workers = Array.from({ length: 6 }, () => worker());
      try {
        for (let waited = 0; (confirming.get("r1") ?? 0) === 0; waited += 20) {
          if (waited > 20_000) throw new Error("no confirmation reached replica r1");
          await sleep(20);
        }
        // A moment into r1's confirmation, so the kill most likely lands on its held-up POST (a kill before it is interrupted all the same).
        await sleep(100);
        const killedAt = Date.now();
        await (replicas[0] as ReplicaProcess).kill();
        /** Until `count` writes the predicate picks were acknowledged: the soak is seen going on, not given time. */
        const acknowledgedSoon = async (what: string, count: number, picked: (outcome: Outcome) => boolean) => {
          for (let waited = 0; outcomes.filter((outcome) => outcome.status === "submitted" && picked(outcome)).length < count; waited += 20) {
            if (waited > 60_000) throw new Error(`no ${what} within 60 s`);
            await sleep(20);
          }
        };
        await acknowledgedSoon("write through r2 after the kill", 2, (outcome) => outcome.replica === "r2" && outcome.startedAt > killedAt);
        await cluster.restart();
        const databaseBackAt = Date.now();
        await acknowledgedSoon("write after the database came back", 2, (outcome) => outcome.startedAt > databaseBackAt);
        await (replicas[0] as ReplicaProcess).restart();
        const replicaBackAt = Date.now();
        await acknowledgedSoon("write after r1 came back", 3, (outcome) => outcome.startedAt > replicaBackAt);
        stopping = true;
        await Promise.all(workers);

        const acknowledged = outcomes.filter((outcome) => outcome.status === "submitted");
        expect(interrupted).toBeGreaterThan(0);
        expect(outcomes.filter((outcome) => !["submitted", "interrupted"].includes(outcome.status))).toEqual([]);
        // The other replica kept serving while the first was down, and writes went on after the database came back.
        expect(
          acknowledged.filter((outcome) => outcome.replica === "r2" && outcome.startedAt > killedAt && outcome.endedAt < replicaBackAt).length,
        ).toBeGreaterThan(0);
        expect(acknowledged.filter((outcome) => outcome.startedAt > databaseBackAt).length).toBeGreaterThan(0);
        expect((replicas[1] as ReplicaProcess).running()).toBe(true);

        const exported = exportedChain();
        const records = chain(exported);
        const reserved = new Set(records.filter((record) => record.event === "reserved").map((record) => record.details?.reference as string));
        for (const outcome of acknowledged) {
          // Nothing acknowledged is lost: sent exactly once, as the transaction named, and in the chain.
          expect(await transactionsOf(outcome.reference)).toEqual([outcome.transactionId]);
          expect(recordsOf(records, "submitted", outcome.reference)).toHaveLength(1);
        }
        const found: number[] = [];
        for (const reference of new Set([...reserved, ...outcomes.map((outcome) => outcome.reference)])) {
          const transactions = await transactionsOf(reference);
          expect(transactions.length, reference).toBeLessThanOrEqual(1);
          if (transactions.length === 1) expect(reserved.has(reference), `${reference} was sent without a reservation`).toBe(true);
          found.push(...transactions);
        }
        // Every transaction made since the soak began is one of those writes: none was sent without its reference reserved.
        const made = (await client.searchAllTransactions()).map((transaction) => transaction.id).filter((id) => id > lastBefore);
        expect(made.sort((a, b) => a - b)).toEqual(found.filter((id) => id > lastBefore).sort((a, b) => a - b));
        expect(acknowledged.length).toBeGreaterThan(5);

        // With the replicas' key: a default key in the runner's home is another key, whose seal verify-audit does not trust.
        const verified = spawnSync(process.execPath, [bundle, "verify-audit", "--audit-seal-key-file", sealKeyFile, "--store", storeUrl], { encoding: "utf8" });
        expect(verified.status, verified.stdout + verified.stderr).toBe(0);
        // At least the records exported above: a replica's background look-up may append its record after the export.
        const intact = /^ok: (\d+) records, chain intact/.exec(verified.stdout);
        expect(intact, verified.stdout).not.toBeNull();
        expect(Number(intact?.[1])).toBeGreaterThanOrEqual(records.length);
        expect(verified.stdout + verified.stderr).not.toContain(cluster.password);
        const exportedFile = join(mkdtempSync(join(tmpdir(), "team-export-")), "audit.jsonl");
        writeFileSync(exportedFile, exported);
        expect(spawnSync(process.execPath, [bundle, "verify-audit", exportedFile], { encoding: "utf8" }).status).toBe(0);
      } finally {
        stopping = true;
        await control(emulator, "DELETE", "/faults");
        if (!(replicas[0] as ReplicaProcess).running()) await (replicas[0] as ReplicaProcess).restart();
      }
    },
    120_000,
  );

  it("listens again after the PostgreSQL restart: a replica that lived through it still hears the other's writes", async () => {
    await (replicas[1] as ReplicaProcess).waitForStderr("change bus: listening on PostgreSQL channel custody_resource_changed again");
    await expectWriteOnR1HeardOnR2(5_556n);
  });
});
