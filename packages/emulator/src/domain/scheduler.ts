import type { EmulatorContext } from "../context.js";
import type { AppliedChange } from "../store/applied-change.js";
import type { TransactionRow } from "../store/state-types.js";
import { DueQueue, type Due } from "./due-queue.js";
import { requireTransaction } from "./lookups.js";
import { broadcastTransaction } from "./broadcast/broadcast-transaction.js";
import { signTransaction } from "./broadcast/sign-transaction.js";
import { processEpochStarts } from "./epoch-boundary.js";
import { solanaEpochsOf } from "./solana-epochs-of.js";
import { endTransaction } from "./transactions/end-transaction.js";

const MAX_STEPS_PER_CATCH_UP = 10_000;

/**
 * Brings time-driven state up to the simulated now, one event at a time in time order:
 * epoch starts, signing (processingDelayMs after approval), broadcast (as long again after
 * signing), and expiry of requests without quorum 7 days after creation. What is due is kept
 * in a queue updated by every commit, so a catch-up costs O(log n) per step, not a scan of
 * every transaction.
 */
export class Scheduler {
  private checkedVersion = -1;
  private nextAt = Number.NEGATIVE_INFINITY;
  private readonly due = new DueQueue();

  constructor(private readonly ctx: EmulatorContext) {
    for (const row of ctx.store.values("transactions")) this.track(row);
    ctx.store.onCommit((changes) => this.onCommit(changes));
  }

  catchUp(): void {
    const { store, clock } = this.ctx;
    const now = clock.now();
    if (store.version === this.checkedVersion && now < this.nextAt) return;
    for (let step = 0; step < MAX_STEPS_PER_CATCH_UP; step += 1) {
      const due = this.earliestTransactionEvent();
      const epochs = solanaEpochsOf(store.meta(), this.ctx.options.epochSeconds);
      const nextEpoch = store.meta().processed_epoch + 1;
      const epochAt = epochs.startOf(nextEpoch);
      const otherAt = due?.at ?? Number.POSITIVE_INFINITY;
      if (epochAt <= now && epochAt <= otherAt) {
        const lastEpoch = Math.min(epochs.epochAt(now), epochs.epochAt(otherAt));
        const count = Math.max(1, lastEpoch - nextEpoch + 1);
        this.ctx.commitSync((tx) => processEpochStarts(tx, nextEpoch, count, epochs.lengthMs), epochs.startOf(nextEpoch + count - 1));
        continue;
      }
      if (due && due.at <= now) {
        this.ctx.commitSync((tx) => {
          const row = requireTransaction(tx, due.transactionId);
          if (due.kind === "sign") signTransaction(tx, this.ctx.hsm, row);
          else if (due.kind === "broadcast") broadcastTransaction(tx, row, { epochs });
          else endTransaction(tx, row, "EXPIRED", 0);
        }, due.at);
        continue;
      }
      this.checkedVersion = store.version;
      this.nextAt = Math.min(epochAt, otherAt);
      return;
    }
  }

  private earliestTransactionEvent(): Due | undefined {
    return this.due.peek();
  }

  private onCommit(changes: readonly AppliedChange[]): void {
    for (const change of changes) {
      if (change.table === "transactions") {
        if (change.after) this.track(change.after);
        else this.due.set(Number(change.key), undefined);
      } else if (change.table === "requests" && change.after?.transaction_id != null) {
        const row = this.ctx.store.get("transactions", change.after.transaction_id);
        if (row) this.track(row);
      }
    }
  }

  /** Files the transaction's next step: signing after approval, broadcast after signing, expiry while pending. */
  private track(row: TransactionRow): void {
    const delay = this.ctx.options.processingDelayMs;
    let due: Due | undefined;
    if (row.status === "APPROVED" && row.approved_on_ms !== null) due = { at: row.approved_on_ms + delay, kind: "sign", transactionId: row.id };
    else if (row.status === "SIGNED" && row.signed_on_ms !== null) due = { at: row.signed_on_ms + delay, kind: "broadcast", transactionId: row.id };
    else if (row.status === "PENDING_APPROVAL") {
      const request = this.ctx.store.get("requests", row.request_id);
      if (request) due = { at: request.expired_at_ms, kind: "expire", transactionId: row.id };
    }
    this.due.set(row.id, due);
  }
}
