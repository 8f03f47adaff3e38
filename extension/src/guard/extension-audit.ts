import { join } from "node:path";
import { AuditLog, committedSince, type AuditInput } from "@custody/shared";

export const AUDIT_SURFACE = "vscode";
const DAY_MS = 86_400_000;

/** The extension's hash-chained audit log, in its global storage folder. */
export class ExtensionAudit {
  readonly path: string;
  #log: AuditLog | undefined;

  constructor(storageDir: string) {
    this.path = join(storageDir, "audit", "custody-vscode-audit.jsonl");
  }

  /** Appends a record; opening the log verifies its chain first and refuses a broken one. */
  record(input: Omit<AuditInput, "surface">): void {
    this.#log ??= new AuditLog(this.path);
    this.#log.append({ surface: AUDIT_SURFACE, ...input });
  }

  /** What this operator's submitted writes committed in the currency over the last 24 hours. */
  spentLast24h(operator: string, currency: string, now = new Date()): bigint {
    return committedSince(this.path, { operator, currency, since: new Date(now.getTime() - DAY_MS) });
  }
}
