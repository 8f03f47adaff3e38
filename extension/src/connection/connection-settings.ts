import * as vscode from "vscode";

export const SETTINGS_SECTION = "custody";
/** The settings a connection is made of (the gateway token is in secret storage, not a setting). */
export const CONNECTION_SETTINGS = ["baseUrl", "operator"] as const;

export interface ConnectionSettings {
  /** Empty when not configured. */
  baseUrl: string;
  /** Empty when not configured. */
  operator: string;
  /** 0 turns automatic refresh off. */
  refreshIntervalSeconds: number;
  /** Empty: no local policy file. */
  policyFile: string;
  /** Empty: the audit log every surface shares by default. */
  auditLog: string;
}

const MAX_REFRESH_SECONDS = 86_400;

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

function refreshSeconds(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) return 30;
  return Math.min(value, MAX_REFRESH_SECONDS);
}

/**
 * The extension's settings. baseUrl, operator, policyFile and auditLog are application-scoped in the
 * manifest: only the user's own settings count, so a folder's .vscode/settings.json cannot
 * point the operator at another server or swap the policy.
 */
export function readConnectionSettings(): ConnectionSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return {
    baseUrl: text(config.get("baseUrl")),
    operator: text(config.get("operator")),
    refreshIntervalSeconds: refreshSeconds(config.get("refreshIntervalSeconds")),
    policyFile: text(config.get("policyFile")),
    auditLog: text(config.get("auditLog")),
  };
}

/** Saves the connection in the user's settings (Global target). */
export async function saveConnectionSettings(baseUrl: string, operator: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  await config.update("baseUrl", baseUrl, vscode.ConfigurationTarget.Global);
  await config.update("operator", operator, vscode.ConfigurationTarget.Global);
}
