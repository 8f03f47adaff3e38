import { delimitUntrusted, whenText, type WaitingWrite } from "@custody/shared";
import { z } from "zod";

/** A write waiting for this server's person, as list_pending_approvals gives it: never what names its intent in the store. */
export const WaitingWriteView = z.object({
  reference: z.string(),
  tool: z.string(),
  /** What moves in one line, as the dry run said it (workspace text sanitised), or null. */
  moves: z.string().nullable(),
  expires_at: z.string(),
});

export function waitingWriteView(write: WaitingWrite): z.infer<typeof WaitingWriteView> {
  return { reference: write.reference, tool: write.tool, moves: write.moves, expires_at: new Date(write.expires_at).toISOString() };
}

/** "cw-… solana_create_stake: <untrusted …>Stake SOL from …</untrusted>; expires in 4 min" */
export function waitingWriteLine(write: WaitingWrite, now: Date): string {
  const moves = write.moves === null ? "" : `: ${delimitUntrusted("moves", write.moves)}`;
  return `${write.reference} ${write.tool}${moves}; expires ${whenText(new Date(write.expires_at), now)}.`;
}
