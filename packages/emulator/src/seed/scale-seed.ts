import { performance } from "node:perf_hooks";
import type { TransactionStatus } from "@custody/shared";
import type { EmulatorContext, Tx } from "../context.js";
import { DAY_MS } from "../clock/timestamps.js";
import { accountKeyId } from "../domain/broadcast/sign-transaction.js";
import { findAccountByName, findWorkspaceUser } from "../domain/lookups.js";
import { badRequest, conflict } from "../domain/domain-error.js";
import type { AccountRow, UserRow } from "../store/state-types.js";
import { HUMAN_APPROVERS } from "./base-state.js";
import { SCALE_HISTORY_DAYS, scaleAccountPlan, scaleTransactionPlan, type ScaleSizes } from "./scale-plan.js";
import { externalAddress, scaleAccountRow, scaleCosts, scaleGovernance, scaleTransactionRows, type ScaleCast } from "./scale-rows.js";

export interface ScaleSeedRequest {
  accounts: number;
  transactions: number;
  /** The API operator the rules name and that creates the transactions; default the first ACTIVE one. */
  operator?: string | undefined;
  /** Account names are the prefix and a number; default "scale-". */
  prefix?: string | undefined;
}

export interface ScaleSeedSummary {
  operator: string;
  accounts: { count: number; first_id: number | null; last_id: number | null; first_name: string | null; last_name: string | null };
  transactions: { count: number; first_id: number | null; last_id: number | null; by_status: Partial<Record<TransactionStatus, number>> };
  /** A note reference to search for with GET /transactions?label= (one match), or null without transactions. */
  label_example: string | null;
  commits: number;
  seconds: number;
}

/** Rows per commit: each commit is one journal line and leaves the state consistent on its own. */
const ACCOUNTS_PER_COMMIT = 1_000;
const TRANSACTIONS_PER_COMMIT = 5_000;

function scaleOperator(ctx: EmulatorContext, name: string | undefined): UserRow {
  if (name === undefined) {
    const first = [...ctx.store.values("users")].filter((user) => user.is_api && user.status === "ACTIVE").sort((a, b) => a.id - b.id)[0];
    if (!first) throw badRequest("operator: the workspace has no ACTIVE API operator to name in the rules; register one first or name one");
    return first;
  }
  const user = findWorkspaceUser(ctx.store, name, true);
  if (!user || user.status !== "ACTIVE") throw badRequest(`operator: ${JSON.stringify(name)} is not an ACTIVE API operator of the workspace`);
  return user;
}

function add(totals: Map<number, bigint>, key: number, amount: bigint): void {
  if (amount !== 0n) totals.set(key, (totals.get(key) ?? 0n) + amount);
}

/**
 * Adds a large workspace in a few commits: `accounts` accounts on the three networks (keys and
 * addresses from the HSM) and `transactions` sends among them and to outside addresses over the
 * last thirty days, with the statuses, notes and history the engine would have given them:
 * mostly SUBMITTED; on every tenth account a human step, so some REJECTED, EXPIRED and, in the
 * last twelve hours, PENDING_APPROVAL. Balances stay consistent: each account starts with its
 * spare funds plus what its transactions take, and receivers in the workspace are credited.
 * Rows are written directly (not through the HSM signing path) in commits of a few thousand;
 * no webhook is sent.
 */
export async function seedScale(ctx: EmulatorContext, request: ScaleSeedRequest): Promise<ScaleSeedSummary> {
  const started = performance.now();
  const operator = scaleOperator(ctx, request.operator);
  const humans = HUMAN_APPROVERS.map((name) => findWorkspaceUser(ctx.store, name, false)).filter((user): user is UserRow => user?.status === "ACTIVE");
  const cast: ScaleCast = { operator, humans };
  if (request.transactions > 0 && request.accounts === 0) throw badRequest("accounts: must be at least 1 when transactions are seeded (they need senders)");
  const nowMs = ctx.clock.now();
  const sizes: ScaleSizes = {
    accounts: request.accounts,
    transactions: request.transactions,
    prefix: request.prefix ?? "scale-",
    nowMs,
    withHumans: humans.length > 0,
  };
  for (let position = 0; position < sizes.accounts; position += 1) {
    const name = scaleAccountPlan(position, sizes).name;
    if (findAccountByName(ctx.store, name))
      throw conflict("AccountExists", `prefix: an account named ${JSON.stringify(name)} exists already; choose another prefix`);
  }

  const costs = new Map<number, bigint>();
  for (let position = 0; position < sizes.transactions; position += 1) {
    const plan = scaleTransactionPlan(position, sizes);
    const { charged, held } = scaleCosts(plan, scaleAccountPlan(plan.sender, sizes).network);
    add(costs, plan.sender, charged + held);
  }

  let commits = 0;
  const accounts: AccountRow[] = [];
  const accountsCreatedOn = nowMs - (SCALE_HISTORY_DAYS + 1) * DAY_MS;
  for (let from = 0; from < sizes.accounts; from += ACCOUNTS_PER_COMMIT) {
    const rows = await ctx.commit((tx) => {
      const created: AccountRow[] = [];
      for (let position = from; position < Math.min(sizes.accounts, from + ACCOUNTS_PER_COMMIT); position += 1) {
        const plan = scaleAccountPlan(position, sizes);
        const id = tx.nextId("account");
        const row = scaleAccountRow(plan, id, ctx.hsm.address(plan.network, accountKeyId(id)), accountsCreatedOn, scaleGovernance(cast, plan.needsHumans));
        const funded = { ...row, free: row.free + (costs.get(position) ?? 0n) };
        tx.put("accounts", id, funded);
        created.push(funded);
      }
      return created;
    });
    accounts.push(...rows);
    commits += 1;
  }

  const byStatus: Partial<Record<TransactionStatus, number>> = {};
  let firstTransaction: number | null = null;
  let lastTransaction: number | null = null;
  for (let from = 0; from < sizes.transactions; from += TRANSACTIONS_PER_COMMIT) {
    const ids = await ctx.commit((tx) => seedTransactions(tx, from, Math.min(sizes.transactions, from + TRANSACTIONS_PER_COMMIT)));
    firstTransaction ??= ids.first;
    lastTransaction = ids.last;
    commits += 1;
  }

  function seedTransactions(tx: Tx, from: number, to: number): { first: number | null; last: number | null } {
    const charged = new Map<number, bigint>();
    const held = new Map<number, bigint>();
    const received = new Map<number, bigint>();
    let first: number | null = null;
    let last: number | null = null;
    const meta = tx.meta();
    const counters = { ...meta.counters };
    for (let position = from; position < to; position += 1) {
      const plan = scaleTransactionPlan(position, sizes);
      const sender = accounts[plan.sender] as AccountRow;
      const receiver = plan.receiver === null ? undefined : accounts[plan.receiver];
      const ids = { transaction: counters.transaction + 1, request: counters.request + 1, firstEntry: counters.history_entry + 1 };
      const rows = scaleTransactionRows({
        plan,
        ids,
        sender,
        recipient: receiver?.address ?? externalAddress(sender.network, position),
        cast,
        processingDelayMs: ctx.options.processingDelayMs,
      });
      counters.transaction = ids.transaction;
      counters.request = ids.request;
      counters.history_entry += rows.request.entries.length;
      tx.put("requests", ids.request, rows.request);
      tx.put("transactions", ids.transaction, rows.transaction);
      const costsOf = scaleCosts(plan, sender.network);
      add(charged, sender.id, costsOf.charged);
      add(held, sender.id, costsOf.held);
      if (receiver && plan.outcome === "SUBMITTED") add(received, receiver.id, plan.amount);
      byStatus[plan.outcome] = (byStatus[plan.outcome] ?? 0) + 1;
      first ??= ids.transaction;
      last = ids.transaction;
    }
    tx.putMeta({ ...meta, counters });
    for (const id of new Set([...charged.keys(), ...held.keys(), ...received.keys()])) {
      const account = tx.get("accounts", id);
      if (!account) throw new Error(`scale seed: account ${id} vanished while seeding`);
      tx.put("accounts", id, {
        ...account,
        free: account.free - (charged.get(id) ?? 0n) + (received.get(id) ?? 0n),
        in_flight: account.in_flight + (held.get(id) ?? 0n),
      });
    }
    return { first, last };
  }

  const firstAccount = accounts[0];
  const lastAccount = accounts.at(-1);
  return {
    operator: operator.username,
    accounts: {
      count: accounts.length,
      first_id: firstAccount?.id ?? null,
      last_id: lastAccount?.id ?? null,
      first_name: firstAccount?.name ?? null,
      last_name: lastAccount?.name ?? null,
    },
    transactions: { count: sizes.transactions, first_id: firstTransaction, last_id: lastTransaction, by_status: byStatus },
    label_example: sizes.transactions > 0 ? scaleTransactionPlan(Math.floor(sizes.transactions / 2), sizes).reference : null,
    commits,
    seconds: Math.round(performance.now() - started) / 1000,
  };
}
