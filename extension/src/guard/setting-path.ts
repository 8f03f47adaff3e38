import * as vscode from "vscode";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** A path setting as configured: absolute or starting with "~/"; undefined when empty, a problem naming the setting otherwise. */
export function settingPath(name: string, setting: string): { path: string } | { problem: string } | undefined {
  if (setting === "") return undefined;
  const path = setting.startsWith("~/") ? join(homedir(), setting.slice(2)) : setting;
  return isAbsolute(path) ? { path } : { problem: vscode.l10n.t("custody.{0} must be an absolute path (or start with ~/)", name) };
}
