import * as vscode from "vscode";
import { sanitizeUntrustedText, errorMessage } from "@custody/shared";
import { translate } from "./translate.js";

/** A line as the channel shows it: it may quote workspace or service text (names, addresses, answers). */
function shown(line: string): string {
  return sanitizeUntrustedText(line, Number.POSITIVE_INFINITY);
}

/** The "Custody" output channel: every call result and error, timestamped by VS Code; its callers write their lines through vscode.l10n. */
export class OutputLog implements vscode.Disposable {
  readonly #channel: vscode.LogOutputChannel;

  constructor(name = "Custody") {
    this.#channel = vscode.window.createOutputChannel(name, { log: true });
  }

  info(line: string): void {
    this.#channel.info(shown(line));
  }

  warn(line: string): void {
    this.#channel.warn(shown(line));
  }

  error(context: string, error: unknown): void {
    this.#channel.error(vscode.l10n.t("{0}: {1}", context, errorMessage(error, 1000, translate)));
  }

  /** A multi-line block (a request body, a list of checks) under a heading. */
  block(heading: string, lines: readonly string[]): void {
    this.#channel.info([heading, ...lines.map((line) => `    ${line}`)].map(shown).join("\n"));
  }

  show(): void {
    this.#channel.show(true);
  }

  dispose(): void {
    this.#channel.dispose();
  }
}
