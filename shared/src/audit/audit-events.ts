/**
 * Every event of the audit log, with its one meaning; every surface writes them with these
 * meanings only (the write road writes those of writes, in this order of a write's life).
 */
export const AUDIT_EVENT_MEANINGS = {
  refused: "the call was refused before anything was sent: the local policy, the confirmation (token, intent, session), or what it was bound to changed",
  failed: "the write did not happen: a step before the POST failed (nothing sent), or the service refused the POST with a definite answer",
  blocked: "a blocking check stopped the write at the stage named in details.stage; nothing was sent",
  dry_run: "a plan passed its checks and was shown for confirmation; a newer dry run of the same intent voids it",
  declined: "the person declined or cancelled the confirmation; nothing was sent",
  confirmed: "the confirmation was accepted (by the person where the surface can ask, else by the confirmation token alone); the write goes to its final check",
  reserved: "the final check passed; the write's amount and intent were reserved just before its one POST",
  submitted: "the service answered the write with its transaction (or an operation's result)",
  ambiguous: "the POST's answer was lost: the write may have happened; it is looked up and counted until resolved",
  looked_up:
    "a background look-up of a write whose answer was lost (or never came) did not " +
    "find it: details.found says what it found (nothing, candidates by id, or it " +
    "could not read); the write stays unknown and counted",
  resolved:
    "a later look-up of an ambiguous write, or of one whose process stopped before its answer, concluded: " +
    "found (details.transaction_id), or not found within its horizon (still counted)",
  sealed:
    "the store's tail was sealed with its key for the first time (details.reason " +
    "first_seal), or sealed again by a person after looking at a store its seal did not " +
    "match (resealed, with the seal replaced and what the log held)",
} as const;

export type AuditEventName = keyof typeof AUDIT_EVENT_MEANINGS;
