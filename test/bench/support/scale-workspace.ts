import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import { httpCall, jsonCall } from "./json-http.js";
import { registerOperator } from "./operator-registration.js";

export interface ScaleSpec {
  baseUrl: string;
  controlUrl: string;
  operator: string;
  accounts: number;
  transactions: number;
  concurrency: number;
}

export interface SeedWindow {
  /** Transactions in the workspace when the window ended. */
  upTo: number;
  requestsPerSecond: number;
}

export interface SeededScale {
  accountNames: string[];
  accountsSeconds: number;
  transactionsSeconds: number;
  /** POST /transactions throughput per window of the seeding: how the cost grows with the workspace. */
  windows: SeedWindow[];
  /** The note content of transaction i is `scale-ref-<i>`; one in the middle, to search for. */
  searchRef: string;
  /** The id of a transaction of the seed, for its history. */
  historyTransactionId: number;
}

const CURRENCIES = ["solana_testnet", "polkadot", "ethereum"] as const;
const BALANCE: Record<(typeof CURRENCIES)[number], string> = {
  solana_testnet: "1000000000000000",
  polkadot: "1000000000000000",
  ethereum: "1000000000000000000000",
};

async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < count; index = next++) await work(index);
    }),
  );
}

/**
 * A large workspace through the public surfaces only (the emulator has no bulk seed): accounts
 * through the control plane, transactions through POST /transactions, as the operator.
 */
export async function seedScaleWorkspace(spec: ScaleSpec): Promise<SeededScale> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const as = { "x-vendor-api-user": spec.operator };
  await registerOperator(agent, spec.baseUrl, spec.controlUrl, spec.operator);
  const rule = { creators: [{ username: spec.operator, is_api: true }], steps: [{ quorum: 1, approvers: [{ username: spec.operator, is_api: true }] }] };
  const names = Array.from({ length: spec.accounts }, (_, index) => `scale-${String(index + 1).padStart(5, "0")}`);
  const accounts: { name: string; currency: (typeof CURRENCIES)[number]; address: string }[] = new Array(spec.accounts);
  let started = performance.now();
  await inParallel(spec.accounts, spec.concurrency, async (index) => {
    const currency = CURRENCIES[index % CURRENCIES.length] as (typeof CURRENCIES)[number];
    const account = await jsonCall<{ address: string }>(agent, "POST", `${spec.controlUrl}/accounts`, {
      name: names[index],
      currency,
      governance: { transaction: rule, staking: null, smart_contract: null },
      balance: BALANCE[currency],
    });
    accounts[index] = { name: names[index] as string, currency, address: account.address };
  });
  const accountsSeconds = (performance.now() - started) / 1000;
  const maxFees = new Map<string, string>();
  for (const [index, currency] of CURRENCIES.entries()) {
    const from = accounts[index];
    const to = accounts[index + CURRENCIES.length];
    if (!from || !to) throw new Error("the scale workspace needs at least six accounts");
    const estimate = await jsonCall<{ max_fees: string | number }>(agent, "POST", `${spec.baseUrl}/transactions/fees`, { account_name: from.name, amount: "1000", recipient: to.address, speed: "NORMAL" }, as);
    maxFees.set(currency, String(estimate.max_fees));
  }
  const windows: SeedWindow[] = [];
  const windowSize = Math.max(100, Math.round(spec.transactions / 10));
  let windowStarted = performance.now();
  let done = 0;
  let historyTransactionId = 0;
  const middle = Math.floor(spec.transactions / 2);
  started = performance.now();
  await inParallel(spec.transactions, spec.concurrency, async (index) => {
    // Each account sends to the next account of its currency (the previous one at the end).
    const position = index % spec.accounts;
    const from = accounts[position];
    const to = accounts[position + CURRENCIES.length < spec.accounts ? position + CURRENCIES.length : position - CURRENCIES.length];
    if (!from || !to) throw new Error("no account");
    const answer = await httpCall(
      agent,
      "POST",
      `${spec.baseUrl}/transactions`,
      { account_name: from.name, amount: "1000", max_fees: maxFees.get(from.currency), recipient: to.address, speed: "NORMAL", note: { title: `scale ${index}`, content: `scale-ref-${index}` } },
      as,
    );
    if (answer.status !== 200) throw new Error(`seeding transaction ${index}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
    if (index === middle) historyTransactionId = (JSON.parse(answer.text) as { id: number }).id;
    done += 1;
    if (done % windowSize === 0) {
      const now = performance.now();
      windows.push({ upTo: done, requestsPerSecond: Math.round(windowSize / ((now - windowStarted) / 1000)) });
      windowStarted = now;
    }
  });
  const transactionsSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { accountNames: names, accountsSeconds, transactionsSeconds, windows, searchRef: `scale-ref-${middle}`, historyTransactionId };
}

/**
 * The seconds POST /transactions would take to reach `target` transactions, by a least-squares
 * fit of the per-request time against the workspace's size over the measured windows: the
 * emulator's cost per request grows with the number of transactions it holds.
 */
export function projectSeedSeconds(windows: readonly SeedWindow[], windowSize: number, target: number): { secondsPerRequestAtZero: number; secondsPerRequestPerTransaction: number; projectedSeconds: number } | null {
  const points = windows.map((window) => ({ x: window.upTo - windowSize / 2, y: 1 / window.requestsPerSecond }));
  if (points.length < 2) return null;
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const slope = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0) / points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  const intercept = meanY - slope * meanX;
  return { secondsPerRequestAtZero: intercept, secondsPerRequestPerTransaction: slope, projectedSeconds: intercept * target + (slope * target * target) / 2 };
}
