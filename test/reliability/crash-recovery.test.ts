import { mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CustodyClient, hasBlocking, type Account, type Transaction } from "@custody/shared";
import { planWrite, sendOnce } from "@custody/shared/road-steps";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleDir, bundleEntry, EMULATOR_CLI_ENTRY } from "../bench/support/program-bundles.js";
import { registerOperator } from "../bench/support/operator-registration.js";
import { spawnEmulator, type EmulatorReady, type SpawnedProgram } from "../bench/support/spawned-program.js";
import { planContext } from "../contract/emulator-harness.js";
import { recordFigures } from "./support/reliability-figures.js";
import { SCALE, TEST_TIMEOUT_MS } from "./support/reliability-scale.js";

// The emulator CLI with --data-dir, killed with SIGKILL while writers send through the write
// road, then restarted on the same directory: every acknowledged write is there, no reference
// was applied twice, no balance is negative, and per currency the value is conserved.

const OPERATOR = "crash-bot";
const OUTSIDE_SOLANA = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const operatorRule = { creators: [{ username: OPERATOR, is_api: true }], steps: [{ quorum: 1, approvers: [{ username: OPERATOR, is_api: true }] }] };
const humanRule = { creators: [{ username: OPERATOR, is_api: true }], steps: [{ quorum: 1, approvers: [{ username: "dana.approver", is_api: false }] }] };

/** Accounts, their funding from outside (base units), and who approves their sends. */
const ACCOUNTS = [
  { name: "sol-a", currency: "solana_testnet", balance: 1000n * 10n ** 9n, rule: operatorRule },
  { name: "sol-b", currency: "solana_testnet", balance: 0n, rule: operatorRule },
  { name: "sol-h", currency: "solana_testnet", balance: 100n * 10n ** 9n, rule: humanRule },
  { name: "dot-a", currency: "polkadot", balance: 1000n * 10n ** 10n, rule: operatorRule },
  { name: "dot-b", currency: "polkadot", balance: 0n, rule: operatorRule },
  { name: "eth-a", currency: "ethereum", balance: 100n * 10n ** 18n, rule: operatorRule },
  { name: "eth-b", currency: "ethereum", balance: 0n, rule: operatorRule },
];

/** The sends the writers cycle through: outside the workspace, between accounts, and waiting for a person. */
const SENDS = [
  { from: "sol-a", to: OUTSIDE_SOLANA, amount: 1_000_000n, maxFees: 7_500n },
  { from: "sol-a", to: "sol-b", amount: 2_000_000n, maxFees: 7_500n },
  { from: "dot-a", to: "dot-b", amount: 10_000_000n, maxFees: 24_000_000n },
  { from: "eth-a", to: "eth-b", amount: 10n ** 12n, maxFees: 400_000_000_000_000n },
  { from: "sol-h", to: "sol-a", amount: 3_000_000n, maxFees: 7_500n },
];

interface Attempt {
  reference: string;
  send: (typeof SENDS)[number];
  /** Set when the service answered the POST: the write is acknowledged. */
  transactionId: number | null;
  outcome: "acknowledged" | "unknown" | "refused";
}

let cli: string;
let bundles: string;
let dataDir: string;
let running: SpawnedProgram<EmulatorReady>;
const ARGS = () => ["--port", "0", "--data-dir", dataDir, "--seed", "empty", "--processing-delay-ms", "30"];

beforeAll(async () => {
  bundles = bundleDir();
  cli = await bundleEntry(EMULATOR_CLI_ENTRY, join(bundles, "custody-emulator.js"));
  dataDir = mkdtempSync(join(tmpdir(), "custody-crash-"));
  running = await spawnEmulator(cli, ARGS());
  const agent = new Agent({ keepAlive: false });
  await registerOperator(agent, running.ready.base_url, running.ready.control_url, OPERATOR);
  for (const account of ACCOUNTS) {
    const response = await fetch(`${running.ready.control_url}/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: account.name,
        currency: account.currency,
        governance: { transaction: account.rule, staking: null, smart_contract: null },
        balance: account.balance.toString(),
      }),
    });
    if (!response.ok) throw new Error(`creating ${account.name}: HTTP ${response.status} ${await response.text()}`);
  }
}, 120_000);

afterAll(async () => {
  await running?.stop();
  for (const dir of [dataDir, bundles]) if (dir) rmSync(dir, { recursive: true, force: true });
});

function clientOf(ready: EmulatorReady, retries = 0): CustodyClient {
  return new CustodyClient({ baseUrl: ready.base_url, operator: OPERATOR, timeoutMs: 5000, retry: { retries, baseDelayMs: 20, maxDelayMs: 200 } });
}

async function addressesOf(client: CustodyClient): Promise<Map<string, Account>> {
  return new Map((await client.listAllAccounts()).map((account) => [account.name, account]));
}

/** Writers on the write road until the process dies under them. */
async function writeUntilKilled(ready: EmulatorReady, killAfterAcknowledged: number): Promise<Attempt[]> {
  const client = clientOf(ready);
  const accounts = await addressesOf(client);
  const attempts: Attempt[] = [];
  let acknowledged = 0;
  let killed = false;
  let next = 0;
  const writer = async () => {
    while (!killed) {
      const send = SENDS[next++ % SENDS.length] as (typeof SENDS)[number];
      const recipient = accounts.get(send.to)?.address ?? send.to;
      let plan;
      try {
        plan = await planWrite(planContext(client), {
          kind: "send",
          account: send.from,
          amount: send.amount,
          max_fees: send.maxFees,
          recipient,
          speed: "NORMAL",
          note: { title: "crash", content: "load" },
        });
      } catch {
        continue;
      }
      if (hasBlocking(plan.checks)) throw new Error(`the send from ${send.from} is blocked: ${plan.checks.map((check) => check.code).join(", ")}`);
      const attempt: Attempt = { reference: plan.correlation_id, send, transactionId: null, outcome: "unknown" };
      attempts.push(attempt);
      try {
        const outcome = await sendOnce(client, plan);
        if (outcome.status === "not_applied") attempt.outcome = "refused";
        if (outcome.status === "submitted" && !outcome.looked_up) {
          attempt.transactionId = outcome.transaction.id;
          attempt.outcome = "acknowledged";
          acknowledged += 1;
          if (acknowledged === killAfterAcknowledged) {
            killed = true;
            running.child.kill("SIGKILL");
          }
        }
      } catch (error) {
        // Refused by the service (4xx): not applied. Anything else after the kill: unknown.
        if (error instanceof Error && /answered HTTP 4\d\d/.test(error.message)) attempt.outcome = "refused";
      }
    }
  };
  await Promise.all(Array.from({ length: SCALE.crashWriters }, writer));
  await new Promise<void>((resolve) =>
    running.child.exitCode !== null || running.child.signalCode !== null ? resolve() : running.child.once("exit", () => resolve()),
  );
  return attempts;
}

async function settle(control: string, client: CustodyClient): Promise<Transaction[]> {
  for (let round = 0; round < 50; round += 1) {
    await fetch(`${control}/process`, { method: "POST" });
    const all = await client.searchAllTransactions({}, { pageSize: 1000, maxPages: 1000 });
    if (all.every((tx) => tx.status !== "APPROVED" && tx.status !== "SIGNED")) return all;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error("approved transactions were not broadcast after the restart");
}

describe("kill -9 under concurrent writes, then restart on the same data directory", () => {
  it(
    `keeps every invariant over ${SCALE.crashRounds} crash${SCALE.crashRounds === 1 ? "" : "es"}`,
    async () => {
      const all: Attempt[] = [];
      const rounds: Record<string, number>[] = [];
      for (let round = 0; round < SCALE.crashRounds; round += 1) {
        const attempts = await writeUntilKilled(running.ready, 25 + round * 17);
        all.push(...attempts);
        running = await spawnEmulator(cli, ARGS());
        const client = clientOf(running.ready, 3);

        // Every acknowledged write survived, with its amount and its reference.
        for (const attempt of attempts.filter((item) => item.outcome === "acknowledged")) {
          const tx = await client.getTransaction(attempt.transactionId as number);
          expect(tx.amount).toBe(attempt.send.amount);
          expect(tx.notes.some((note) => note.content.includes(attempt.reference))).toBe(true);
          expect((await client.getTransactionHistory(tx.id)).history[0]?.length).toBeGreaterThan(0);
        }
        // A person approves what waited for them; then everything approved is broadcast.
        const pending = await client.searchAllTransactions({ status: "PENDING_APPROVAL" });
        for (const tx of pending.slice(0, 3)) {
          const approved = await fetch(`${running.ready.control_url}/transactions/${tx.id}/approve`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username: "dana.approver" }),
          });
          expect(approved.status).toBe(200);
        }
        const transactions = await settle(running.ready.control_url, client);
        rounds.push({
          round,
          attempts: attempts.length,
          acknowledged: attempts.filter((item) => item.outcome === "acknowledged").length,
          unknown: attempts.filter((item) => item.outcome === "unknown").length,
          unknownApplied: 0,
          transactions: transactions.length,
          pendingApproved: Math.min(3, pending.length),
        });

        // Nothing half-applied: ids run without a gap.
        const ids = transactions.map((tx) => tx.id).sort((a, b) => a - b);
        expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
        // No reference applied twice; an unacknowledged write is there once or not at all.
        const byReference = new Map<string, number>();
        for (const tx of transactions) {
          for (const match of tx.notes.flatMap((note) => [...note.content.matchAll(/cw-[0-9a-f]{20}/g)].map((found) => found[0])))
            byReference.set(match, (byReference.get(match) ?? 0) + 1);
        }
        expect([...byReference.values()].every((count) => count === 1)).toBe(true);
        for (const attempt of all) expect(byReference.get(attempt.reference) ?? 0).toBeLessThanOrEqual(1);
        (rounds.at(-1) as Record<string, number>).unknownApplied = attempts.filter(
          (item) => item.outcome === "unknown" && byReference.has(item.reference),
        ).length;
        for (const attempt of all.filter((item) => item.outcome === "acknowledged" || item.outcome === "refused")) {
          expect(byReference.get(attempt.reference) ?? 0).toBe(attempt.outcome === "acknowledged" ? 1 : 0);
        }

        // No balance negative; value conserved per currency.
        const accounts = await client.listAllAccounts();
        const own = new Set(accounts.map((account) => account.address.toLowerCase()));
        const held = new Map<string, bigint>();
        for (const account of accounts) {
          expect(account.balance >= 0n && account.available_balance >= 0n && account.available_balance <= account.balance, account.name).toBe(true);
          held.set(account.currency, (held.get(account.currency) ?? 0n) + account.balance);
        }
        for (const tx of transactions) {
          expect(tx.fees === null || (tx.fees >= 0n && tx.fees <= tx.max_fees)).toBe(true);
          const left = (tx.fees ?? 0n) + (tx.status === "SUBMITTED" && !own.has(tx.recipient.toLowerCase()) ? tx.amount : 0n);
          held.set(tx.currency, (held.get(tx.currency) ?? 0n) + left);
        }
        for (const currency of new Set(ACCOUNTS.map((account) => account.currency))) {
          const funded = ACCOUNTS.filter((account) => account.currency === currency).reduce((sum, account) => sum + account.balance, 0n);
          expect({ currency, value: held.get(currency) }).toEqual({ currency, value: funded });
        }
      }
      recordFigures("crash-recovery", {
        crashes: SCALE.crashRounds,
        writers: SCALE.crashWriters,
        attempts: all.length,
        acknowledged: all.filter((item) => item.outcome === "acknowledged").length,
        acknowledgedLost: 0,
        duplicates: 0,
        rounds,
      });
    },
    TEST_TIMEOUT_MS,
  );
});
