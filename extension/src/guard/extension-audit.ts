import { join } from "node:path";
import { FileGuardStore, type AuditInput } from "@custody/shared";

export const AUDIT_SURFACE = "vscode";

/** The extension's guard store (its hash-chained audit log and the intents beside it), in its global storage folder. */
export class ExtensionAudit {
  readonly path: string;
  #store: FileGuardStore | undefined;

  constructor(storageDir: string) {
    this.path = join(storageDir, "audit", "custody-vscode-audit.jsonl");
  }

  /** Opened on first use, which verifies the log's chain and refuses a broken one. */
  store(): FileGuardStore {
    this.#store ??= new FileGuardStore(this.path);
    return this.#store;
  }

  /** Appends a record of a call outside the write road (an operator's creation or registration). */
  async record(input: Omit<AuditInput, "surface">): Promise<void> {
    await this.store().append({ surface: AUDIT_SURFACE, ...input });
  }
}
