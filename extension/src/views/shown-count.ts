import * as vscode from "vscode";
/** "200 of 10,001 accounts shown", or "200 accounts shown" when the service gives no total. */
export function shownCount(shown: number, total: number | undefined, what: string): string {
  const count = (value: number): string => value.toLocaleString("en-US");
  return total === undefined ? vscode.l10n.t("{0} {1} shown", count(shown), what) : vscode.l10n.t("{0} of {1} {2} shown", count(shown), count(total), what);
}
