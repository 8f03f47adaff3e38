import type { EmulatorContext } from "../context.js";

/** Moves simulated time forward and records the new offset, so a restart keeps it; resolves once that is on disk. */
export function advanceClock(ctx: EmulatorContext, ms: number): Promise<void> {
  ctx.clock.advance(ms);
  return ctx.commitSync((tx) => tx.putMeta({ ...tx.meta(), clock_offset_ms: ctx.clock.offset })).durable;
}
