import type { AuditInput } from "../audit/audit-entry.js";
import type { GuardStore } from "../guard-store/guard-store.js";
import { localText, type LocalText } from "../l10n/translate.js";
import { errorLocalText } from "../untrusted/error-message.js";

/** What the service did that a failed audit record leaves out: a guarded write (missing from the daily limits too), or another call's change. */
export type AuditedWork = "write" | "call";

/**
 * Appends the records of what the service already did. Their failure cannot undo it, so it is not thrown: it is said
 * beside what was done (the answer's warning), never in its place, so no one reads a plain failure of work that happened.
 */
export async function auditAfterWork(store: Pick<GuardStore, "append">, inputs: readonly AuditInput[], work: AuditedWork): Promise<LocalText | null> {
  try {
    for (const input of inputs) await store.append(input);
    return null;
  } catch (error) {
    return work === "write"
      ? localText("the audit log could not be written ({0}): this write is missing from it and from the daily limits", errorLocalText(error))
      : localText(
          "the audit log could not be written ({0}): this call is missing from it, though the service answered it as this answer says",
          errorLocalText(error),
        );
  }
}
