import { Account, AccountPage, ErrorBody, Transaction, TransactionHistory, TransactionPage, type TransactionStatus } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { advance, expectStatus, startHarness, type Harness } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { tempDir } from "./support/temp-dir.js";
import { decode } from "./support/wire.js";

const OPERATOR = "treasury-bot";
const DAY_S = 86_400;

interface Summary {
  operator: string;
  accounts: { count: number; first_id: number; last_id: number; first_name: string; last_name: string };
  transactions: { count: number; first_id: number; last_id: number; by_status: Partial<Record<TransactionStatus, number>> };
  label_example: string;
  commits: number;
}

/** The answer without what grows with the clock (confirmations, Polkadot waiting times). */
function timeless(text: string): string {
  return text.replace(/"(confirmations|waiting_time)":\d+/g, '"$1":0');
}

async function seed(h: Harness, body: Record<string, unknown>): Promise<Summary> {
  return obj(expectStatus(await h.control.post("/seed/scale", body), 200)) as unknown as Summary;
}

async function everything<T>(h: Harness, path: string, schema: typeof AccountPage | typeof TransactionPage): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = decode(schema, await h.api(OPERATOR).get(`${path}${path.includes("?") ? "&" : "?"}page=${page}&page_size=1000`));
    all.push(...(answer.edges.map((edge) => edge.node) as T[]));
    if (!answer.page_info.has_next_page) return all;
  }
}

describe("POST /_control/seed/scale: a large workspace in a few commits", () => {
  let dir: ReturnType<typeof tempDir>;
  let h: Harness;
  beforeEach(async () => {
    dir = tempDir();
    h = await startHarness({ seed: "demo", dataDir: dir.path });
  });
  afterEach(async () => {
    await h.close();
    dir.remove();
  });

  it("adds accounts on the three networks and transactions with every status, their notes and history", async () => {
    const before = decode(TransactionPage, await h.api(OPERATOR).get("/transactions?page_size=1")).page_info.count;
    const summary = await seed(h, { accounts: 40, transactions: 3000, operator: OPERATOR, prefix: "bulk-" });
    expect(summary.accounts).toMatchObject({ count: 40, first_name: "bulk-00001", last_name: "bulk-00040" });
    expect(summary.transactions.count).toBe(3000);
    expect(summary.commits).toBeLessThanOrEqual(3);
    const byStatus = summary.transactions.by_status;
    for (const status of ["SUBMITTED", "PENDING_APPROVAL", "REJECTED", "EXPIRED"] as const) expect(byStatus[status], status).toBeGreaterThan(0);

    const accounts = (await everything<Account>(h, "/accounts", AccountPage)).filter((account) => account.name.startsWith("bulk-"));
    expect(accounts).toHaveLength(40);
    expect(new Set(accounts.map((account) => account.type))).toEqual(new Set(["Solana", "Polkadot", "Ethereum"]));
    const transactions = (await everything<Transaction>(h, "/transactions", TransactionPage)).filter((tx) => tx.id >= summary.transactions.first_id);
    expect(transactions).toHaveLength(3000);
    expect(decode(TransactionPage, await h.api(OPERATOR).get("/transactions?page_size=1")).page_info.count).toBe(before + 3000);
    const counted = new Map<string, number>();
    for (const tx of transactions) counted.set(tx.status, (counted.get(tx.status) ?? 0) + 1);
    expect(Object.fromEntries(counted)).toEqual(byStatus);

    for (const tx of transactions) {
      const submitted = tx.status === "SUBMITTED";
      expect(tx.fees !== null, `fees of ${tx.id}`).toBe(submitted);
      expect(tx.tx_hash !== null, `tx_hash of ${tx.id}`).toBe(submitted);
      expect(tx.broadcast_on !== null, `broadcast_on of ${tx.id}`).toBe(submitted);
      expect(tx.notes).toHaveLength(1);
      if (tx.fees !== null) expect(tx.fees <= tx.max_fees).toBe(true);
    }
    const expectedEntries: Record<string, string[][]> = {
      SUBMITTED: [
        ["APPROVED", "SIGNED", "SUBMITTED"],
        ["PENDING_APPROVAL", "APPROVED", "SIGNED", "SUBMITTED"],
      ],
      PENDING_APPROVAL: [["PENDING_APPROVAL"]],
      REJECTED: [["PENDING_APPROVAL", "REJECTED"]],
      EXPIRED: [["PENDING_APPROVAL", "EXPIRED"]],
    };
    for (const status of Object.keys(expectedEntries)) {
      for (const tx of transactions.filter((item) => item.status === status).slice(0, 5)) {
        const history = decode(TransactionHistory, await h.api(OPERATOR).get(`/transactions/${tx.id}/history`)).history;
        expect(history).toHaveLength(1);
        const entries = history[0] ?? [];
        expect(expectedEntries[status]).toContainEqual(entries.map((entry) => entry.status));
        expect(entries.every((entry) => entry.type === "CREATE_TRANSACTION" && entry.is_complete === (entry.status !== "PENDING_APPROVAL"))).toBe(true);
        expect(new Set(entries.map((entry) => entry.expired_at)).size).toBe(1);
      }
    }

    const found = decode(TransactionPage, await h.api(OPERATOR).get(`/transactions?label=${summary.label_example}`));
    expect(found.page_info.count).toBe(1);
    expect(found.edges[0]?.node.notes[0]?.content).toContain(summary.label_example);

    // What pending transactions hold is what separates balance from available_balance (Solana, Ethereum).
    for (const account of accounts.filter((item) => item.type !== "Polkadot")) {
      const held = transactions
        .filter((tx) => tx.account_id === account.id && tx.status === "PENDING_APPROVAL")
        .reduce((sum, tx) => sum + tx.amount + tx.max_fees, 0n);
      expect(account.balance - account.available_balance, account.name).toBe(held);
    }
  });

  it("seeded rows work with the engine: a human approves a pending one, it is broadcast; the rest expire after 7 days", async () => {
    const summary = await seed(h, { accounts: 40, transactions: 3000, operator: OPERATOR, prefix: "bulk-" });
    const pending = (await everything<Transaction>(h, "/transactions?status=PENDING_APPROVAL", TransactionPage)).filter(
      (tx) => tx.id >= summary.transactions.first_id,
    );
    expect(pending.length).toBe(summary.transactions.by_status.PENDING_APPROVAL);
    const [first, ...others] = pending;
    if (!first) throw new Error("no pending transaction was seeded");
    const sender = decode(Account, await h.api(OPERATOR).get(`/accounts/${first.account_id}`));
    expectStatus(await h.control.post(`/transactions/${first.id}/approve`, { username: "dana.approver" }), 200);
    await h.control.post("/process");
    const broadcast = decode(Transaction, await h.api(OPERATOR).get(`/transactions/${first.id}`));
    expect(broadcast.status).toBe("SUBMITTED");
    const after = decode(Account, await h.api(OPERATOR).get(`/accounts/${first.account_id}`));
    expect(after.balance).toBe(sender.balance - first.amount - (broadcast.fees ?? 0n));

    await advance(h, { seconds: 8 * DAY_S });
    for (const tx of others) expect(decode(Transaction, await h.api(OPERATOR).get(`/transactions/${tx.id}`)).status).toBe("EXPIRED");

    const created = await h.api(OPERATOR).post("/transactions", {
      account_name: summary.accounts.first_name,
      amount: "1000",
      max_fees: "7500",
      recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
      speed: "NORMAL",
    });
    expect(decode(Transaction, expectStatus(created, 200)).status).toBe("APPROVED");
  });

  it("the seeded state survives a restart", async () => {
    const summary = await seed(h, { accounts: 30, transactions: 2000 });
    const read = async (): Promise<string[]> =>
      Promise.all(
        [
          "/accounts?page=1&page_size=1000",
          "/transactions?page=1&page_size=1000",
          "/transactions?page=2&page_size=1000",
          `/transactions/${summary.transactions.last_id}/history`,
          `/transactions?label=${summary.label_example}`,
        ].map(async (path) => timeless((await h.api(OPERATOR).get(path)).text)),
      );
    const before = await read();
    await h.close();
    h = await startHarness({ seed: "demo", dataDir: dir.path });
    expect(await read()).toEqual(before);
  });

  it("refuses what it cannot seed, naming the field", async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ accounts: 5, transactions: 10, operator: "nobody" }, 400, /^operator: "nobody" is not an ACTIVE API operator/],
      [{ accounts: 5, transactions: 10, operator: "legacy-bot" }, 400, /^operator: "legacy-bot" is not an ACTIVE API operator/],
      [{ accounts: 0, transactions: 10 }, 400, /^accounts: must be at least 1 when transactions are seeded/],
      [{ accounts: 100_001, transactions: 0 }, 400, /^accounts: /],
      [{ accounts: 1, transactions: 0, prefix: "has space" }, 400, /^prefix: must be 1 to 32 letters/],
      [{ accounts: 1, transactions: 0, extra: true }, 400, /extra/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await h.control.post("/seed/scale", body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(decode(ErrorBody, answer).message, JSON.stringify(body)).toMatch(message);
    }
    await seed(h, { accounts: 2, transactions: 0, prefix: "twice-" });
    const again = await h.control.post("/seed/scale", { accounts: 3, transactions: 0, prefix: "twice-" });
    expect(again.status).toBe(409);
    expect(decode(ErrorBody, again).message).toBe('prefix: an account named "twice-00001" exists already; choose another prefix');
  });
});
