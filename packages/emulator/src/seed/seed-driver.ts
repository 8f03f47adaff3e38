import type { SolanaStakeAction, TransactionRequest } from "@custody/shared";
import { DAY_MS } from "../clock/timestamps.js";
import type { EmulatorContext } from "../context.js";
import { advanceClock } from "../domain/advance-clock.js";
import { findAccountByName, findWorkspaceUser } from "../domain/lookups.js";
import type { Scheduler } from "../domain/scheduler.js";
import { solanaEpochsOf } from "../domain/solana-epochs-of.js";
import { planCreateStake, planStakeAction, requireStake, type StakeActionInput } from "../domain/solana/plan-stake.js";
import { approveTransaction } from "../domain/transactions/approve-transaction.js";
import { createTransaction } from "../domain/transactions/create-transaction.js";
import { endTransaction } from "../domain/transactions/end-transaction.js";
import { planTransaction } from "../domain/transactions/plan-transaction.js";
import type { AccountRow, SolanaStakeRow, TransactionRow, UserRow } from "../store/state-types.js";

/**
 * Plays a workspace's past through the real engine on a simulated clock: each step at its
 * day, with the scheduler bringing epochs, signing, broadcast and expiry up to date between steps.
 */
export class SeedDriver {
  private readonly start: number;

  constructor(
    readonly ctx: EmulatorContext,
    private readonly scheduler: Scheduler,
  ) {
    this.start = ctx.clock.now();
  }

  async at(days: number): Promise<void> {
    const target = this.start + Math.round(days * DAY_MS);
    const ms = target - this.ctx.clock.now();
    if (ms > 0) await advanceClock(this.ctx, ms);
    this.scheduler.catchUp();
  }

  /** Lets approved transactions be signed and broadcast. */
  async settle(): Promise<void> {
    await advanceClock(this.ctx, 2 * this.ctx.options.processingDelayMs + 2);
    this.scheduler.catchUp();
  }

  user(name: string): UserRow {
    const user = findWorkspaceUser(this.ctx.store, name);
    if (!user) throw new Error(`seed: no user ${name}`);
    return user;
  }

  account(name: string): AccountRow {
    const account = findAccountByName(this.ctx.store, name);
    if (!account) throw new Error(`seed: no account ${name}`);
    return account;
  }

  transact(operator: string, request: TransactionRequest): Promise<TransactionRow> {
    const user = this.user(operator);
    return this.ctx.commit((tx) => createTransaction(tx, user, planTransaction(tx, user, request)));
  }

  createStake(operator: string, accountName: string, amount: bigint, validator: string): Promise<TransactionRow> {
    const user = this.user(operator);
    return this.ctx.commit((tx) => createTransaction(tx, user, planCreateStake(this.account(accountName), user, amount, validator, tx.now)));
  }

  stakeAction(operator: string, accountName: string, stakeUid: string, action: SolanaStakeAction, input: StakeActionInput = {}): Promise<TransactionRow> {
    const epochs = solanaEpochsOf(this.ctx.store.meta(), this.ctx.options.epochSeconds);
    const user = this.user(operator);
    return this.ctx.commit((tx) => {
      const account = this.account(accountName);
      const stake = requireStake(tx, account, stakeUid);
      const created = createTransaction(tx, user, planStakeAction(account, user, stake, action, input, epochs, tx.now));
      tx.put("solana_stakes", stake.uid, { ...stake, pending_transaction_id: created.id });
      return created;
    });
  }

  stakeOf(transaction: TransactionRow): SolanaStakeRow {
    const effect = transaction.effect;
    const uid = effect.kind === "solana_create_stake" ? effect.stake_uid : undefined;
    const stake = uid === undefined ? undefined : this.ctx.store.get("solana_stakes", uid);
    if (!stake) throw new Error(`seed: transaction ${transaction.id} created no stake`);
    return stake;
  }

  approveAsHuman(transactionId: number, username: string): Promise<TransactionRow> {
    const user = this.user(username);
    return this.ctx.commit((tx) => approveTransaction(tx, transactionId, { username, is_api: false, user_id: user.id }));
  }

  rejectAsHuman(transactionId: number, username: string): Promise<TransactionRow> {
    const user = this.user(username);
    return this.ctx.commit((tx) => {
      const row = tx.get("transactions", transactionId);
      if (!row) throw new Error(`seed: no transaction ${transactionId}`);
      return endTransaction(tx, row, "REJECTED", user.id, { rejectedBy: username });
    });
  }
}
