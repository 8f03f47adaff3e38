import type { AuditEvent, AuditRecord, Finding } from "@custody/shared";
import type { ServerContext } from "../server/server-context.js";

export const AUDIT_SURFACE = "mcp";

export interface AuditEntry {
  event: AuditEvent;
  tool: string;
  request_digest?: string | null;
  /** The request in domain form (amounts in base units); never a token or a secret. */
  request?: unknown;
  checks?: readonly Finding[];
  transaction_id?: number | null;
  error?: string;
  details?: Record<string, unknown>;
}

/** Appends one line to the hash-chained audit log, as this server's operator. */
export function recordAudit(ctx: ServerContext, entry: AuditEntry): AuditRecord {
  return ctx.audit.append({
    event: entry.event,
    surface: AUDIT_SURFACE,
    operator: ctx.operator,
    tool: entry.tool,
    request_digest: entry.request_digest ?? null,
    ...(entry.request === undefined ? {} : { request: entry.request }),
    ...(entry.checks === undefined ? {} : { checks: entry.checks.map((check) => ({ code: check.code, severity: check.severity })) }),
    ...(entry.transaction_id === undefined ? {} : { transaction_id: entry.transaction_id }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
    ...(entry.details === undefined ? {} : { details: entry.details }),
  });
}
