import { z } from "zod";

export const WriteStatus = z.enum(["dry_run", "blocked", "refused", "declined", "submitted", "uncertain", "failed"]);
export type WriteStatus = z.infer<typeof WriteStatus>;

/**
 * The answer of every guarded write. Besides its status, an answer about a plan carries reference,
 * account (name held to a budget, id), amounts, destinations, fee, balances (before and after), dates, checks (those that did not pass),
 * passed (codes), governance and request (method, path, exact body); a dry run adds expires_at
 * (its confirmation token is in the text), a submission the transaction and where it stands, a
 * failure error. The schema lists the status alone to keep tools/list small.
 */
export const WriteOutput = z.looseObject({ status: WriteStatus });
