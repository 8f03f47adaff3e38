import { z } from "zod";
import { PersonOnRecord } from "../identity/person.js";
import { AUDIT_EVENT_MEANINGS, type AuditEventName } from "./audit-events.js";

export const AuditEvent = z.enum(Object.keys(AUDIT_EVENT_MEANINGS) as [AuditEventName, ...AuditEventName[]]);
export type AuditEvent = z.infer<typeof AuditEvent>;

/**
 * One line of the audit log. It never holds a secret or a confirmation token: the request
 * is identified by the digest the token is bound to.
 */
export const AuditRecord = z.object({
  seq: z.int().nonnegative(),
  at: z.string(),
  event: AuditEvent,
  surface: z.string(),
  operator: z.string(),
  /** The signed-in person who asked (null or absent: a single user, not signed in). */
  person: PersonOnRecord.nullable().optional(),
  tool: z.string(),
  request_digest: z.string().nullable(),
  request: z.unknown().optional(),
  checks: z.array(z.object({ code: z.string(), severity: z.string() })).optional(),
  transaction_id: z.int().nullable().optional(),
  error: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  prev_hash: z.string().regex(/^[0-9a-f]{64}$/),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

export type AuditInput = Omit<AuditRecord, "seq" | "at" | "prev_hash" | "hash">;

export const GENESIS_HASH = "0".repeat(64);
