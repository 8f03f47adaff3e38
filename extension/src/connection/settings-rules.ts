import * as vscode from "vscode";
import { baseUrlRule, HeaderOperatorName, ServiceBaseUrl } from "@custody/shared";
import type { ConnectionTarget } from "./connection-state.js";

// The rules of the connection's address and operator: shared's, which the MCP server and the client apply too. The
// Connect command's boxes check them as typed, and a connection from the user's settings (which can be edited by hand)
// is checked by the same before any call.

/** Shared's base URL rules in their words, the credentials rule with where a gateway's secret goes instead. */
export function baseUrlProblem(text: string): string | undefined {
  const parsed = ServiceBaseUrl.safeParse(text);
  if (parsed.success) return undefined;
  const problems = parsed.error.issues.map((issue) =>
    baseUrlRule(issue) === "credentials" ? vscode.l10n.t("{0} (use Custody: Set or Clear the Gateway Access Token)", issue.message) : issue.message,
  );
  return `base URL: ${problems.join("; ")}`;
}

/** An operator name a header can carry (printable ASCII), as the client and the MCP server require. */
export function operatorProblem(text: string): string | undefined {
  const parsed = HeaderOperatorName.safeParse(text.trim());
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

/**
 * A base URL as it may be shown or logged: its user, password, query and fragment (where a secret such as a token can ride)
 * are never shown, nor is one that is not an http or https URL at all.
 */
export function shownBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return vscode.l10n.t("(not an absolute URL)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return vscode.l10n.t("(not an http or https URL)");
  if (url.username === "" && url.password === "" && url.search === "" && url.hash === "") return text.trim();
  return vscode.l10n.t("{0} (its credentials, query and fragment not shown)", `${url.origin}${url.pathname}`);
}
