import { SolanaEpochClock, withdrawableAfterDeactivationAt } from "../../dates/solana-epochs.js";
import type { SolanaStake } from "../../schemas/solana-stake.js";
import type { PlanContext } from "../kit/plan-context.js";

/** The epoch clock the account's stakes give, and the service's now; a listing that fails gives no clock. */
export async function epochClockOf(
  ctx: Pick<PlanContext, "client" | "signal">,
  accountId: number,
): Promise<{ clock: SolanaEpochClock | null; now: Date; stakes: SolanaStake[] }> {
  let stakes: SolanaStake[] = [];
  try {
    stakes = await ctx.client.listSolanaStakes(accountId, { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
  }
  const now = ctx.client.serviceNow();
  return { clock: SolanaEpochClock.fromStakes(stakes, now), now, stakes };
}

/** The next epoch boundary (at the latest): when a stake created or deactivated now activates or becomes withdrawable. */
export async function nextEpochAt(ctx: Pick<PlanContext, "client" | "signal">, accountId: number): Promise<Date> {
  const { clock, now } = await epochClockOf(ctx, accountId);
  return withdrawableAfterDeactivationAt(now, clock);
}
