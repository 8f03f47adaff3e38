import type { GuardStore, WaitingFor } from "../guard-store/guard-store.js";
import { renderText, type LocalText } from "../l10n/translate.js";
import { oneLineUntrusted } from "../untrusted/untrusted-text.js";
import { SealedIntent } from "./road-types.js";

/** A write an assistant prepared that waits for its person's decision, as every surface lists it. */
export interface WaitingWrite {
  /** What names the intent in the store: for the surfaces that decide it (never shown to a model). */
  nonce: string;
  /** The dry run's reference, as the assistant was given it. */
  reference: string;
  tool: string;
  /** What moves in one line, as the dry run said it (sanitised workspace text), or null for one prepared before it was kept. */
  moves: string | null;
  /** The same as its template and values, to render in the reader's language (then sanitised on one line, as `moves` is); null when not kept. */
  moves_text: LocalText | null;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

/** The text kept beside `moves` when it still says the same in English: else what was recorded is `moves` alone. */
function movesText(sealed: SealedIntent, moves: string | null): LocalText | null {
  const text = sealed.moves_text;
  return text !== undefined && moves !== null && oneLineUntrusted(renderText(text)) === moves ? text : null;
}

/** Whose writes are listed: the person's, for this operator, planned against this custody service (its base URL). */
export type WaitingListed = WaitingFor & { service: string };

/**
 * The writes waiting for this person's decision, soonest to expire first, at most `limit`; an intent
 * the store holds that does not parse, or that was planned against another custody service (the
 * store is shared by every surface of the machine's user; the road refuses it there), is left out.
 */
export async function waitingWrites(store: Pick<GuardStore, "waitingIntents">, query: WaitingListed, limit: number): Promise<WaitingWrite[]> {
  const intents = await store.waitingIntents({ operator: query.operator, person: query.person }, limit);
  return intents.flatMap((intent) => {
    let parsed;
    try {
      parsed = SealedIntent.safeParse(JSON.parse(intent.sealed));
    } catch {
      return [];
    }
    if (!parsed.success) return [];
    const sealed = parsed.data;
    if (sealed.service !== undefined && sealed.service !== query.service) return [];
    const moves = sealed.moves ?? null;
    return [
      { nonce: intent.nonce, reference: sealed.correlation_id, tool: sealed.tool, moves, moves_text: movesText(sealed, moves), expires_at: intent.expires_at },
    ];
  });
}
