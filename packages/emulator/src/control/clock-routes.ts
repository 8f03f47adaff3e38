import type { EmulatorContext } from "../context.js";
import { isoWithOffset } from "../clock/timestamps.js";
import { advanceClock } from "../domain/advance-clock.js";
import type { Scheduler } from "../domain/scheduler.js";
import { solanaEpochsOf } from "../domain/solana-epochs-of.js";
import { parseBody } from "../http/parse-body.js";
import type { RouteTable } from "../http/route-def.js";
import { AdvanceClockBody } from "./control-schemas.js";
import { plainReply } from "./plain-reply.js";

export function clockState(ctx: EmulatorContext): Record<string, unknown> {
  const now = ctx.clock.now();
  const epochs = solanaEpochsOf(ctx.store.meta(), ctx.options.epochSeconds);
  const epoch = epochs.epochAt(now);
  return {
    now: isoWithOffset(now),
    now_ms: now,
    offset_ms: ctx.clock.offset,
    epoch,
    epoch_seconds: ctx.options.epochSeconds,
    epoch_started: isoWithOffset(epochs.startOf(epoch)),
    next_epoch_at: isoWithOffset(epochs.startOf(epoch + 1)),
  };
}

/** The simulated clock: read it, move it forward, or run due work now. */
export function addClockRoutes(routes: RouteTable, scheduler: Scheduler): void {
  routes.get("/clock", (ctx) => plainReply(clockState(ctx)));

  routes.post("/clock/advance", async (ctx, request) => {
    const body = parseBody(AdvanceClockBody, request.body ?? {});
    const now = ctx.clock.now();
    let ms = body.ms ?? (body.seconds ?? 0) * 1000;
    if (body.epochs !== undefined) {
      const epochs = solanaEpochsOf(ctx.store.meta(), ctx.options.epochSeconds);
      ms = epochs.startOf(epochs.epochAt(now) + body.epochs) - now;
    }
    await advanceClock(ctx, ms);
    scheduler.catchUp();
    await ctx.store.whenDurable();
    return plainReply(clockState(ctx));
  });

  routes.post("/process", async (ctx) => {
    scheduler.catchUp();
    await ctx.store.whenDurable();
    return plainReply(clockState(ctx));
  });
}
