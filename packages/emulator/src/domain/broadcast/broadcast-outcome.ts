/** What the emulated network did with a signed transaction. */
export type BroadcastOutcome = { ok: true } | { ok: false; reason: string };

export const OK: BroadcastOutcome = { ok: true };

export function refused(reason: string): BroadcastOutcome {
  return { ok: false, reason };
}
