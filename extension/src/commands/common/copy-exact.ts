import * as vscode from "vscode";
import { noteTextProblem } from "@custody/shared";
import { notify } from "../../output/notify.js";

/**
 * Copies workspace text (an address, an id) as it is, and says what was copied; one holding a character the
 * views show escaped (zero-width, bidirectional, a line break) is not copied: what would be pasted is not what
 * the person saw, and no real address or id holds one.
 */
export async function copyExact(field: string, text: string): Promise<void> {
  const problem = noteTextProblem(text);
  if (problem !== undefined) {
    void notify("error", vscode.l10n.t("Custody: not copied: {0}: {1}", field, problem));
    return;
  }
  await vscode.env.clipboard.writeText(text);
  void notify("info", vscode.l10n.t("Custody: copied {0}", text));
}
