import { DAY_MS } from "../clock/timestamps.js";
import { REQUEST_LIFETIME_MS } from "../networks/network-constants.js";
import type { NetworkName } from "../store/state-types.js";

/**
 * The deterministic plan of a scale workspace: which account sends what to whom, when, and
 * how each request ended. Pure: the same sizes and `now` give the same plan.
 */

export interface ScaleAccountPlan {
  /** 0-based position among the seeded accounts. */
  position: number;
  name: string;
  network: NetworkName;
  currency: string;
  /** Its rule has a second step of human approvers: its transactions wait for them. */
  needsHumans: boolean;
  /** What it holds beyond what its seeded transactions take (Polkadot: half of it bonded). */
  spare: bigint;
}

export type ScaleOutcome = "SUBMITTED" | "PENDING_APPROVAL" | "REJECTED" | "EXPIRED";

export interface ScaleTransactionPlan {
  /** 0-based position among the seeded transactions (older first). */
  position: number;
  sender: number;
  /** The receiving seeded account's position, or null for an address outside the workspace. */
  receiver: number | null;
  amount: bigint;
  speed: "NORMAL" | "FAST";
  createdOnMs: number;
  outcome: ScaleOutcome;
  /** When the human approver decided (approved or rejected); null when no human was needed or none decided. */
  decidedOnMs: number | null;
  /** Which of the human approvers decided (0 or 1). */
  approver: number;
  title: string;
  /** Unique text in the note's content, to search by label. */
  reference: string;
}

export const SCALE_HISTORY_DAYS = 30;
/** Requests of accounts that need humans, younger than this, are still waiting. */
const STILL_PENDING_MS = 12 * 3_600_000;
const CURRENCIES: readonly { currency: string; network: NetworkName; spareUnit: bigint; amountUnit: bigint; amountSteps: number }[] = [
  { currency: "solana_testnet", network: "Solana", spareUnit: 1_000_000_000n, amountUnit: 1_000_000n, amountSteps: 50_000 },
  { currency: "polkadot", network: "Polkadot", spareUnit: 10_000_000_000n, amountUnit: 10_000_000n, amountSteps: 500_000 },
  { currency: "ethereum", network: "Ethereum", spareUnit: 1_000_000_000_000_000n, amountUnit: 1_000_000_000_000_000n, amountSteps: 5_000 },
];
const TITLES = ["Vendor payout", "Treasury rebalance", "Payroll batch", "Exchange deposit", "Customer withdrawal", "OTC settlement", "Market maker top-up"];
/** Senders: half the transactions come from the hundred busiest accounts. */
const BUSY_ACCOUNTS = 100;

/** A 32-bit integer hash of two integers (deterministic noise). */
export function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

export function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

export function scaleAccountPlan(position: number, sizes: ScaleSizes): ScaleAccountPlan {
  const kind = CURRENCIES[position % CURRENCIES.length] as (typeof CURRENCIES)[number];
  return {
    position,
    name: `${sizes.prefix}${pad(position + 1, nameWidth(sizes.accounts))}`,
    network: kind.network,
    currency: kind.currency,
    needsHumans: needsHumans(position, sizes),
    spare: kind.spareUnit * BigInt(100 + (mix(position, 1) % 10_000)),
  };
}

/** Another seeded account of the same currency (three positions away), or null when there is none. */
function partnerOf(sender: number, accounts: number): number | null {
  if (sender + CURRENCIES.length < accounts) return sender + CURRENCIES.length;
  if (sender - CURRENCIES.length >= 0) return sender - CURRENCIES.length;
  return null;
}

export interface ScaleSizes {
  accounts: number;
  transactions: number;
  /** Account names are the prefix and a number (scale-00001); note references too (scale-tx-000001). */
  prefix: string;
  /** The simulated time the seeded history ends at. */
  nowMs: number;
  /** Whether the workspace has the human approvers that every tenth account's rule names. */
  withHumans: boolean;
}

/** Digits of the numbers in account names: at least five. */
export function nameWidth(accounts: number): number {
  return Math.max(5, String(accounts).length);
}

function needsHumans(accountPosition: number, sizes: ScaleSizes): boolean {
  return sizes.withHumans && accountPosition % 10 === 9;
}

export function scaleTransactionPlan(position: number, sizes: ScaleSizes): ScaleTransactionPlan {
  const noise = mix(position, 2);
  const busy = Math.min(BUSY_ACCOUNTS, sizes.accounts);
  const sender = noise % 2 === 0 ? mix(position, 3) % busy : mix(position, 4) % sizes.accounts;
  const kind = CURRENCIES[sender % CURRENCIES.length] as (typeof CURRENCIES)[number];
  const span = SCALE_HISTORY_DAYS * DAY_MS;
  const createdOnMs = sizes.nowMs - span + Math.floor(((position + 0.5) * span) / sizes.transactions);
  const age = sizes.nowMs - createdOnMs;
  const roll = mix(position, 5) % 100;
  let outcome: ScaleOutcome = "SUBMITTED";
  let decidedOnMs: number | null = null;
  if (needsHumans(sender, sizes)) {
    const decisionDelay = 300_000 + (mix(position, 6) % 14_400_000);
    if (age < STILL_PENDING_MS) outcome = "PENDING_APPROVAL";
    else if (roll < 5 && age > REQUEST_LIFETIME_MS) outcome = "EXPIRED";
    else outcome = roll < 15 ? "REJECTED" : "SUBMITTED";
    if (outcome === "SUBMITTED" || outcome === "REJECTED") decidedOnMs = createdOnMs + Math.min(decisionDelay, Math.floor(age / 2));
  }
  return {
    position,
    sender,
    receiver: mix(position, 7) % 10 < 7 ? partnerOf(sender, sizes.accounts) : null,
    amount: kind.amountUnit * BigInt(1 + (mix(position, 8) % kind.amountSteps)),
    speed: mix(position, 9) % 10 === 0 ? "FAST" : "NORMAL",
    createdOnMs,
    outcome,
    decidedOnMs,
    approver: mix(position, 10) % 2,
    title: TITLES[mix(position, 11) % TITLES.length] as string,
    reference: `${sizes.prefix}tx-${pad(position + 1, String(sizes.transactions).length)}`,
  };
}
