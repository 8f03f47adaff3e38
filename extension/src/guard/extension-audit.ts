import { join } from "node:path";
import { AuditLog, committedSince, DAILY_LIMIT_WINDOW_MS, reserveDailyAmount, type AuditInput, type Policy, type ReservablePlan, type Reservation } from "@custody/shared";

export const AUDIT_SURFACE = "vscode";

/** The extension's hash-chained audit log, in its global storage folder. */
export class ExtensionAudit {
  readonly path: string;
  #log: AuditLog | undefined;

  constructor(storageDir: string) {
    this.path = join(storageDir, "audit", "custody-vscode-audit.jsonl");
  }

  /** Opening the log verifies its chain first and refuses a broken one. */
  #opened(): AuditLog {
    this.#log ??= new AuditLog(this.path);
    return this.#log;
  }

  /** Appends a record. */
  record(input: Omit<AuditInput, "surface">): void {
    this.#opened().append({ surface: AUDIT_SURFACE, ...input });
  }

  /** Reserves the write's amount against the policy's daily maximum, under the log's lock, just before its POST. */
  reserve(plan: ReservablePlan, policy: Policy, entry: { tool: string; request_digest: string }): Reservation {
    return reserveDailyAmount(this.#opened(), policy, plan, { surface: AUDIT_SURFACE, ...entry });
  }

  /** What this operator's writes committed in the currency over the last 24 hours (every writer of the log, reservations included). */
  spentLast24h(operator: string, currency: string, now = new Date()): bigint {
    return committedSince(this.path, { operator, currency, since: new Date(now.getTime() - DAILY_LIMIT_WINDOW_MS) });
  }
}
