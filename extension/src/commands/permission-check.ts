import * as vscode from "vscode";
import { toolPermission, writeIdentity, type ToolIdentity, type WriteKind, errorMessage } from "@custody/shared";
import type { Services } from "../services.js";
import { loadPolicy } from "../guard/policy-source.js";
import { readConnectionSettings } from "../connection/connection-settings.js";
import { notify } from "../output/notify.js";
import { restrictedModeRefusal } from "../guard/workspace-trust.js";

/** Refuses any write in Restricted Mode, before any input is asked; true when the window is trusted. */
export function trustedWindow(services: Services, tool: string): boolean {
  const refusal = restrictedModeRefusal();
  if (refusal === undefined) return true;
  services.output.warn(`${tool}: ${refusal}`);
  void notify("error", vscode.l10n.t("Custody: {0} refused: {1}", tool, refusal));
  return false;
}

/** Refuses at once, before any input is asked, a write the local policy does not allow. The guard asks again before sending. */
export function permitted(services: Services, kind: WriteKind): boolean {
  if (!trustedWindow(services, writeIdentity(kind).tool)) return false;
  const permission = services.guard.permits(kind);
  if (permission.allowed) return true;
  services.output.warn(`${kind}: refused by the local policy: ${permission.reason}`);
  void services.audit.record({
    operator: services.connection.require().target.operator,
    tool: writeIdentity(kind).tool,
    event: "refused",
    request_digest: null,
    error: permission.reason,
    details: { reason: "permission" },
  });
  void notify("error", vscode.l10n.t("Custody: refused by the local policy: {0}", permission.reason));
  return false;
}

/**
 * The same for a call outside the write road (an operator's creation or registration, an
 * account's sync): refused and audited, before any input is asked, when the local policy
 * (`read_only`, `tools`, `toolsets`) does not allow its tool.
 */
export function toolPermitted(services: Services, tool: ToolIdentity): boolean {
  if (!trustedWindow(services, tool.name)) return false;
  let reason: string | undefined;
  try {
    const permission = toolPermission(loadPolicy(readConnectionSettings().policyFile), tool);
    if (!permission.allowed) reason = permission.reason;
  } catch (error) {
    reason = errorMessage(error, 1000);
  }
  if (reason === undefined) return true;
  void services.audit.record({
    operator: services.connection.require().target.operator,
    tool: tool.name,
    event: "refused",
    request_digest: null,
    error: reason,
  });
  void notify("error", vscode.l10n.t("Custody: {0} refused by the local policy: {1}", tool.name, reason));
  return false;
}
