import { join } from "node:path";
import { FileGuardStore, failureEvent, type AuditInput, withoutSecrets } from "@custody/shared";

export const AUDIT_SURFACE = "vscode";

/** The extension's guard store (its hash-chained audit log and the intents beside it), in its global storage folder. */
export class ExtensionAudit {
  readonly path: string;
  #store: FileGuardStore | undefined;

  constructor(storageDir: string) {
    this.path = join(storageDir, "audit", "custody-vscode-audit.jsonl");
  }

  /** Opened on first use, which verifies the log's chain from its checkpoint and refuses a broken one. */
  store(): FileGuardStore {
    this.#store ??= new FileGuardStore(this.path);
    return this.#store;
  }

  /** Appends a record of a call outside the write road (an operator's creation or registration). */
  async record(input: Omit<AuditInput, "surface">): Promise<void> {
    await this.store().append({ surface: AUDIT_SURFACE, ...input });
  }

  /**
   * Audits a call that changed (or may have changed) something outside the write road: `failed`,
   * or `ambiguous` when its answer was lost. Secrets named in `redact` never reach the record.
   */
  async recordFailure(base: { operator: string; tool: string; request: unknown }, error: unknown, redact: readonly string[] = []): Promise<void> {
    const message = withoutSecrets(error instanceof Error ? error.message : String(error), redact);
    await this.record({ ...base, event: failureEvent(error), request_digest: null, error: message });
  }
}
