import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import { jsonCall } from "./json-http.js";

export interface ScaleSpec {
  controlUrl: string;
  operator: string;
  accounts: number;
  transactions: number;
}

/** What the emulator's scale seed (POST /_control/seed/scale) answers. */
interface ScaleSeedAnswer {
  accounts: { count: number; first_id: number | null; last_id: number | null; first_name: string | null; last_name: string | null };
  transactions: { count: number; first_id: number | null; last_id: number | null; by_status: Record<string, number> };
  label_example: string | null;
  commits: number;
  seconds: number;
}

export interface SeededScale {
  /** How many accounts and transactions the seed added. */
  accounts: number;
  transactions: number;
  /** The last seeded account's name: the one the name look-ups resolve. */
  lastAccountName: string;
  /** Wall time of the seed call, as the bench saw it. */
  seedSeconds: number;
  /** The emulator's own time for it, and the commits (journal lines) it took. */
  emulatorSeconds: number;
  commits: number;
  byStatus: Record<string, number>;
  /** A note reference that matches exactly one transaction. */
  searchRef: string;
  /** A transaction in the middle of the seed, for its history. */
  historyTransactionId: number;
}

/** Adds the accounts and transactions with the emulator's bulk seed (a few commits); the operator must be ACTIVE already. */
export async function seedScaleWorkspace(spec: ScaleSpec): Promise<SeededScale> {
  const agent = new Agent({ keepAlive: true });
  try {
    const started = performance.now();
    const answer = await jsonCall<ScaleSeedAnswer>(agent, "POST", `${spec.controlUrl}/seed/scale`, {
      accounts: spec.accounts,
      transactions: spec.transactions,
      operator: spec.operator,
    });
    const seedSeconds = (performance.now() - started) / 1000;
    const { accounts, transactions } = answer;
    if (accounts.last_name === null || transactions.first_id === null || answer.label_example === null)
      throw new Error(`the scale seed added nothing: ${JSON.stringify(answer)}`);
    return {
      accounts: accounts.count,
      transactions: transactions.count,
      lastAccountName: accounts.last_name,
      seedSeconds,
      emulatorSeconds: answer.seconds,
      commits: answer.commits,
      byStatus: transactions.by_status,
      searchRef: answer.label_example,
      historyTransactionId: transactions.first_id + Math.floor(transactions.count / 2),
    };
  } finally {
    agent.destroy();
  }
}

/** A funded Solana account through the control plane whose rule the operator alone satisfies: sends from it are broadcast at once. */
export async function createSendingAccount(controlUrl: string, operator: string, name: string): Promise<{ name: string; address: string }> {
  const agent = new Agent({ keepAlive: false });
  try {
    const rule = { creators: [{ username: operator, is_api: true }], steps: [{ quorum: 1, approvers: [{ username: operator, is_api: true }] }] };
    const created = await jsonCall<{ name: string; address: string }>(agent, "POST", `${controlUrl}/accounts`, {
      name,
      currency: "solana_testnet",
      governance: { transaction: rule, staking: null, smart_contract: null },
      balance: "1000000000000000",
    });
    return { name: created.name, address: created.address };
  } finally {
    agent.destroy();
  }
}
