import { z } from "zod";

export const WriteStatus = z.enum(["dry_run", "blocked", "refused", "declined", "submitted", "uncertain", "failed"]);
export type WriteStatus = z.infer<typeof WriteStatus>;

/**
 * The answer of every guarded write. Besides these fields, every answer about a plan carries
 * summary, account, request (method, path, exact body), amounts (both units), checks,
 * governance and reference (the correlation id); a dry run adds expires_at, a submission
 * transaction, a failure error. The schema lists only the protocol's own fields to keep
 * tools/list small.
 */
export const WriteOutput = z.looseObject({
  status: WriteStatus,
  confirmation_token: z.string().optional(),
});
