import * as vscode from "vscode";
import { OperatorName } from "@custody/shared";
import type { ConnectionTarget } from "./connection-state.js";

// The rules of the connection's address and operator: the Connect command's boxes check them as typed,
// and a connection from the user's settings (which can be edited by hand) is checked by the same before any call.

export const EXAMPLE_URL = "http://127.0.0.1:8080/module";

export function baseUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return `base URL: must be an absolute URL such as ${EXAMPLE_URL}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "base URL: must use http or https";
  if (url.username !== "" || url.password !== "") return "base URL: must not carry credentials (use Custody: Set or Clear the Gateway Access Token)";
  if (url.search !== "" || url.hash !== "") return "base URL: must have no query or fragment";
  return undefined;
}

export function operatorProblem(text: string): string | undefined {
  const parsed = OperatorName.safeParse(text.trim());
  return parsed.success ? undefined : `operator: ${parsed.error.issues[0]?.message ?? "invalid"}`;
}

/** A target from the settings, checked before any call: the first problem, naming the setting and the rule. */
export function settingsProblem(target: ConnectionTarget): string | undefined {
  const baseUrl = baseUrlProblem(target.baseUrl);
  if (baseUrl !== undefined) return vscode.l10n.t("{0} (user setting): {1}", "custody.baseUrl", baseUrl);
  const operator = operatorProblem(target.operator);
  if (operator !== undefined) return vscode.l10n.t("{0} (user setting): {1}", "custody.operator", operator);
  return undefined;
}

/** A base URL as it may be shown or logged: one carrying a user or password, or not http(s) at all, is not shown as written. */
export function shownBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return vscode.l10n.t("(not an absolute URL)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return vscode.l10n.t("(not an http or https URL)");
  if (url.username === "" && url.password === "") return text;
  url.username = "";
  url.password = "";
  return vscode.l10n.t("{0} (its credentials not shown)", url.href);
}
