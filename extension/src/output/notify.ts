import * as vscode from "vscode";
import { sanitizeUntrustedText } from "@custody/shared";

/** VS Code shows a notification's first lines only; a longer text is cut and says so. */
const SHOWN_LENGTH = 1000;

/**
 * A notification whose text may quote workspace or service text (an account's name, an address,
 * a module's answer): shown sanitised, like every other place such text reaches the person.
 */
export function notify(level: "info" | "warning" | "error", message: string, ...items: string[]): Thenable<string | undefined> {
  const shown = sanitizeUntrustedText(message, SHOWN_LENGTH);
  if (level === "error") return vscode.window.showErrorMessage(shown, ...items);
  if (level === "warning") return vscode.window.showWarningMessage(shown, ...items);
  return vscode.window.showInformationMessage(shown, ...items);
}
