import { z } from "zod";
import { BaseUnitsString, Note, pageOf, Timestamp } from "./primitives.js";

/**
 * The four statuses of the spec, then the emulator's terminal ones (docs/spec-decisions.md):
 * REJECTED (an approver refused), EXPIRED (no quorum within 7 days), FAILED (the network refused it).
 */
export const TransactionStatus = z.enum(["PENDING_APPROVAL", "APPROVED", "SIGNED", "SUBMITTED", "REJECTED", "EXPIRED", "FAILED"]);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

export const TERMINAL_TRANSACTION_STATUSES: readonly TransactionStatus[] = ["SUBMITTED", "REJECTED", "EXPIRED", "FAILED"];

export const TransactionType = z.string().min(1);
export const KNOWN_TRANSACTION_TYPES = [
  "SEND",
  "STAKE_CREATE_DELEGATE",
  "STAKE_DEACTIVATE",
  "STAKE_WITHDRAW",
  "STAKE_DELEGATE",
  "STAKE_SPLIT",
  "STAKE_SPLIT_DEACTIVATE",
  "EXECUTE_CONTRACT",
  "DEPLOY_CONTRACT",
  "BONDEXTRA",
  "UNBOND",
  "REBOND",
  "WITHDRAWUNBONDED",
  "SETPAYEE",
] as const;

/** A transaction as the service returns it. Amounts are base units (bigint in code, strings on the wire). */
export const Transaction = z.looseObject({
  id: z.int(),
  account_id: z.int(),
  account_index: z.int(),
  amount: BaseUnitsString,
  max_fees: BaseUnitsString,
  fees: BaseUnitsString.nullable(),
  broadcast_on: Timestamp.nullable(),
  created_on: Timestamp,
  created_by: z.int(),
  coin_fields: z.looseObject({}).nullable(),
  confirmations: z.int(),
  min_confirmations: z.int(),
  currency: z.string(),
  interaction_type: z.unknown().optional(),
  last_request: z.int(),
  notes: z.array(Note),
  recipient: z.string(),
  speed: z.string(),
  status: TransactionStatus,
  tx_hash: z.string().nullable(),
  type: TransactionType,
  uid: z.string().nullable().optional(),
  senders: z.array(z.unknown()).optional(),
});
export type Transaction = z.infer<typeof Transaction>;
export type TransactionWire = z.input<typeof Transaction>;

export const TransactionPage = pageOf(Transaction);
export type TransactionPage = z.infer<typeof TransactionPage>;

export const TransactionSearchQuery = z.object({
  label: z.string().min(1).optional(),
  account_id: z.int().optional(),
  status: TransactionStatus.optional(),
  page: z.int().positive().optional(),
  page_size: z.int().positive().max(1000).optional(),
});
export type TransactionSearchQuery = z.infer<typeof TransactionSearchQuery>;
