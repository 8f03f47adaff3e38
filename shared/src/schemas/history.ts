import { z } from "zod";
import { Timestamp } from "./primitives.js";
import { TransactionStatus } from "./transaction.js";

export const HistoryEntry = z.looseObject({
  id: z.int(),
  created_by: z.int(),
  created_on: Timestamp,
  expired_at: Timestamp,
  is_complete: z.boolean(),
  status: TransactionStatus,
  type: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** GET /transactions/{id}/history: an array of arrays of entries, one inner array per request. */
export const TransactionHistory = z.looseObject({
  history: z.array(z.array(HistoryEntry)),
});
export type TransactionHistory = z.infer<typeof TransactionHistory>;
