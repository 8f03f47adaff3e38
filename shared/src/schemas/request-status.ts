import { z } from "zod";
import { RuleMember } from "./governance.js";
import { Timestamp } from "./primitives.js";
import { TransactionStatus } from "./transaction.js";

export const Approval = z.looseObject({
  username: z.string(),
  is_api: z.boolean(),
  approved_on: Timestamp,
});
export type Approval = z.infer<typeof Approval>;

export const RequestStep = z.looseObject({
  index: z.int().nonnegative(),
  quorum: z.int().positive(),
  approvers: z.array(RuleMember),
  approvals: z.array(Approval),
  is_complete: z.boolean(),
});
export type RequestStep = z.infer<typeof RequestStep>;

/** GET /requests/{request_id}/status: the governance steps of a request (the emulator's shape). */
export const RequestStatus = z.looseObject({
  id: z.int(),
  type: z.string(),
  status: TransactionStatus,
  transaction_id: z.int().nullable(),
  created_by: z.int(),
  created_on: Timestamp,
  expired_at: Timestamp,
  is_complete: z.boolean(),
  /** admin: the workspace Admin rule that governs operator registration (CREATE_USER). */
  rule: z.enum(["transaction", "staking", "smart_contract", "admin"]),
  steps: z.array(RequestStep),
  rejected_by: z.string().nullable().optional(),
});
export type RequestStatus = z.infer<typeof RequestStatus>;
