import * as vscode from "vscode";
import { errorLocalText, errorMessage, renderText, toolPermission, writeIdentity, type ToolIdentity, type ToolVerdict, type WriteKind } from "@custody/shared";
import type { Services } from "../services.js";
import { loadPolicy } from "../guard/policy-source.js";
import { readConnectionSettings } from "../connection/connection-settings.js";
import { notify } from "../output/notify.js";
import { restrictedModeRefusal } from "../guard/workspace-trust.js";
import { translate } from "../output/translate.js";

/** Refuses any write in Restricted Mode, before any input is asked; true when the window is trusted. */
export function trustedWindow(services: Services, tool: string): boolean {
  const refusal = restrictedModeRefusal();
  if (refusal === undefined) return true;
  services.output.warn(vscode.l10n.t("{0}: {1}", tool, refusal));
  void notify("error", vscode.l10n.t("Custody: {0} refused: {1}", tool, refusal));
  return false;
}

/** Refuses at once, before any input is asked, a write the local policy does not allow. The guard asks again before sending. */
export function permitted(services: Services, kind: WriteKind): boolean {
  if (!trustedWindow(services, writeIdentity(kind).tool)) return false;
  const permission = services.guard.permits(kind);
  if (permission.allowed) return true;
  const shown = renderText(permission.text, translate);
  services.output.warn(vscode.l10n.t("{0}: refused by the local policy: {1}", kind, shown));
  void services.audit.record({
    operator: services.connection.require().target.operator,
    tool: writeIdentity(kind).tool,
    event: "refused",
    request_digest: null,
    error: permission.reason,
    details: { reason: "permission" },
  });
  void notify("error", vscode.l10n.t("Custody: refused by the local policy: {0}", shown));
  return false;
}

/**
 * The same for a call outside the write road (an operator's creation or registration, an
 * account's sync): refused and audited, before any input is asked, when the local policy
 * (`read_only`, `tools`, `toolsets`) does not allow its tool.
 */
export function toolPermitted(services: Services, tool: ToolIdentity): boolean {
  if (!trustedWindow(services, tool.name)) return false;
  let permission: ToolVerdict;
  try {
    permission = toolPermission(loadPolicy(readConnectionSettings().policyFile), tool);
  } catch (error) {
    permission = { allowed: false, reason: errorMessage(error, 1000), text: errorLocalText(error) };
  }
  if (permission.allowed) return true;
  void services.audit.record({
    operator: services.connection.require().target.operator,
    tool: tool.name,
    event: "refused",
    request_digest: null,
    error: permission.reason,
  });
  void notify("error", vscode.l10n.t("Custody: {0} refused by the local policy: {1}", tool.name, renderText(permission.text, translate)));
  return false;
}
