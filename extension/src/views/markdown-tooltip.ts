import * as vscode from "vscode";
import { sanitizeUntrustedText, shortenedText, SHOWN_NAME_BUDGET } from "@custody/shared";

/**
 * A tooltip as a small table. Every value is workspace data: it is sanitised and written as
 * escaped text, never as Markdown, and the tooltip runs no command links.
 */
export function markdownTooltip(title: string, rows: readonly (readonly [string, string | undefined])[], footer?: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString("", true);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.appendMarkdown("**");
  markdown.appendText(sanitizeUntrustedText(title, 200));
  markdown.appendMarkdown("**\n\n");
  for (const [label, value] of rows) {
    if (value === undefined) continue;
    markdown.appendMarkdown(`- ${label}: `);
    markdown.appendText(sanitizeUntrustedText(value, 500).replace(/\n/g, " "));
    markdown.appendMarkdown("\n");
  }
  if (footer !== undefined) {
    markdown.appendMarkdown("\n");
    markdown.appendText(sanitizeUntrustedText(footer, 2000));
  }
  return markdown;
}

/** Workspace text for a label or a description: one line, sanitised, cut to fit. */
export function labelText(text: string, maxLength = 80): string {
  return sanitizeUntrustedText(text, maxLength).replace(/\s+/g, " ");
}

/** An account as a tooltip names it: its name held to the modal's budget, so a long one never pushes its id out. */
export function accountNamed(name: string, id: number): string {
  return vscode.l10n.t("{0} (id {1})", shortenedText(name, SHOWN_NAME_BUDGET), id);
}
