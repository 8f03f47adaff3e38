import * as vscode from "vscode";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createWhole, defaultAuditLogPath, FileGuardStore, failureEvent, type AuditInput, withoutSecrets, errorMessage } from "@custody/shared";
import { settingPath } from "./setting-path.js";

export const AUDIT_SURFACE = "vscode";

/** How long the extension's earlier log is kept in use after this version first started: the daily window and an hour for clocks. */
const EARLIER_LOG_IN_USE_MS = 25 * 60 * 60 * 1000;

/** The marker beside the earlier log holding when this version first found it in use (milliseconds since the epoch, as text). */
const MOVE_MARKER = "moving-to-default-log";

/** Where the guard's audit log is, and why there. */
export interface AuditLogLocation {
  path: string;
  why: "setting" | "default" | "earlier_log";
  /** A setting that cannot be used: every write is refused, naming it. */
  problem?: string;
}

/**
 * The audit log the extension writes: `custody.auditLog` when set; else the default every surface
 * shares (defaultAuditLogPath), so the person's MCP server counts the same daily allowance; except
 * that the extension's earlier log in its global storage stays in use for 25 hours from the first
 * start of this version that found it written within 25 hours (a marker in the global storage),
 * so an upgrade never forgets a day's allowance already spent. The 25 hours are counted from the
 * marker, never from the log's last change: every write changes the log, and a person writing
 * daily would otherwise keep a second allowance for ever.
 */
export function auditLogLocation(storageDir: string, setting: string, now: number = Date.now()): AuditLogLocation {
  const configured = settingPath("auditLog", setting);
  // A setting that cannot be used refuses the extension's writes; the MCP server it
  // provides keeps the default rather than a path relative to wherever it starts.
  if (configured !== undefined)
    return "problem" in configured ? { path: defaultAuditLogPath(), why: "setting", problem: configured.problem } : { path: configured.path, why: "setting" };
  const earlier = join(storageDir, "audit", "custody-vscode-audit.jsonl");
  const changed = statSync(earlier, { throwIfNoEntry: false })?.mtimeMs;
  const since = changed === undefined ? undefined : earlierLogSince(join(storageDir, "audit", MOVE_MARKER), changed, now);
  return since !== undefined && now >= since && now - since < EARLIER_LOG_IN_USE_MS
    ? { path: earlier, why: "earlier_log" }
    : { path: defaultAuditLogPath(), why: "default" };
}

/**
 * When the earlier log's 25 hours began: the marker's time; without a marker, now if the log was
 * changed within 25 hours, else its last change (past its day: the default is used at once), written
 * as the marker, exclusively, so two windows starting together agree. An unreadable
 * marker, or one in the future, counts as expired: the shared default is the log every surface agrees on.
 */
function earlierLogSince(marker: string, changed: number, now: number): number | undefined {
  const written = readMarker(marker);
  if (written !== "absent") return written;
  // A log already past its day is marked as past it too, so that a later write to it (an older version in another window) does not bring it back.
  const start = now - changed >= EARLIER_LOG_IN_USE_MS ? changed : now;
  // Written whole and linked into place: a window starting at the same moment reads a complete marker or none.
  let created: boolean;
  try {
    created = createWhole(marker, String(Math.floor(start)), { mode: 0o600 });
  } catch {
    return undefined;
  }
  if (created) return start;
  const other = readMarker(marker);
  return other === "absent" ? undefined : other;
}

function readMarker(marker: string): number | undefined | "absent" {
  let text: string;
  try {
    text = readFileSync(marker, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : undefined;
  }
  return /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** The output line that says where the audit log is and why, so a person can point the MCP server at the same one; in the window's language. */
export function auditLogNotice(location: AuditLogLocation): string {
  if (location.problem !== undefined) return vscode.l10n.t("Audit log: {0}; writes are refused until it is fixed", location.problem);
  const why =
    location.why === "setting"
      ? "custody.auditLog"
      : location.why === "default"
        ? vscode.l10n.t("the default the MCP server shares")
        : vscode.l10n.t(
            "the extension's earlier log, kept for 25 hours from this version's first start so that the " +
              "last day's writes still count; then the default the MCP server shares",
          );
  return vscode.l10n.t("Audit log: {0} ({1})", location.path, why);
}

/** The extension's guard store (its hash-chained audit log and the intents beside it). */
export class ExtensionAudit {
  readonly path: string;
  #store: FileGuardStore | undefined;

  constructor(readonly location: AuditLogLocation) {
    this.path = location.path;
  }

  /** Opened on first use, which verifies the log's chain from its checkpoint and refuses a broken one. */
  store(): FileGuardStore {
    if (this.location.problem !== undefined) throw new Error(vscode.l10n.t("{0}: nothing is written or sent until it names a file", this.location.problem));
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
    const message = withoutSecrets(errorMessage(error), redact);
    await this.record({ ...base, event: failureEvent(error), request_digest: null, error: message });
  }
}
