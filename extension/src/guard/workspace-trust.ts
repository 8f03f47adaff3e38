import * as vscode from "vscode";

/**
 * In Restricted Mode the extension reads only (package.json's capabilities.untrustedWorkspaces,
 * docs/spec-decisions.md): an untrusted folder may hold text written to steer an agent or a
 * person, and its window acts with the operator's credentials. Answers why a write is refused
 * there, or undefined in a trusted window.
 */
export function restrictedModeRefusal(): string | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  return vscode.l10n.t("this window is in Restricted Mode, where Custody only reads: trust the workspace to send, stake, approve, sync or register");
}
