import * as vscode from "vscode";
import { sanitizeUntrustedText } from "@custody/shared";
import { limitedValidation } from "./input-limit.js";

export interface PickItem<T> extends vscode.QuickPickItem {
  value: T;
}

export interface InputRequest {
  title: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  password?: boolean;
  /** The field the box fills and the longest text it takes (shared's INPUT_LIMITS), checked before `validate`. */
  limit: { field: string; max: number };
  /** Runs on every keystroke: an error string stops Enter; a message with severity Info or Warning only informs. */
  validate?: (text: string) => string | vscode.InputBoxValidationMessage | undefined;
}

export interface ConfirmRequest {
  message: string;
  detail: string;
  /** The button that goes ahead; anything else (Cancel, Escape) declines. */
  action: string;
}

export interface ChoiceRequest {
  message: string;
  detail: string;
  /** The buttons, in order; Cancel and Escape choose none. */
  actions: readonly string[];
}

/**
 * Every question the extension asks a person. Escape answers undefined, which cancels the
 * flow. The window implementation asks through VS Code; a scripted one exists only in tests.
 */
export interface Prompter {
  pick<T>(title: string, items: readonly PickItem<T>[], placeHolder?: string): Promise<T | undefined>;
  input(request: InputRequest): Promise<string | undefined>;
  /** A modal dialog; true only when the person chose the action button. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** A modal dialog with several buttons; the one chosen, or undefined (Cancel, Escape). */
  choose(request: ChoiceRequest): Promise<string | undefined>;
}

/**
 * The longest modal message shown. What moves in one sentence reaches about 1,300 characters at its
 * budgets (a repeat's warning, a cut name, two cut destinations, an unknown fee), cut at 1,000 it
 * lost the fee and the balances after.
 */
const MESSAGE_CAP = 4000;

/**
 * A quick pick renders `$(name)` in an item's label, description and detail as an icon: workspace text there (an account's
 * name) could draw the check or shield the extension's own surfaces use. Escaped, it shows as typed; no item of ours uses one.
 */
function withoutIcons(text: string): string {
  return text.replace(/\$\(/g, "\\$(");
}

/** Asks through VS Code's quick pick, input box and modal dialog. */
export class WindowPrompter implements Prompter {
  async pick<T>(title: string, items: readonly PickItem<T>[], placeHolder?: string): Promise<T | undefined> {
    const shown = items.map((item) => ({
      ...item,
      label: withoutIcons(item.label),
      description: item.description === undefined ? undefined : withoutIcons(item.description),
      detail: item.detail === undefined ? undefined : withoutIcons(item.detail),
    }));
    const chosen = await vscode.window.showQuickPick(shown, { title, placeHolder, ignoreFocusOut: true, matchOnDescription: true, matchOnDetail: true });
    return chosen?.value;
  }

  input(request: InputRequest): Promise<string | undefined> {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: request.title,
        prompt: request.prompt,
        value: request.value,
        placeHolder: request.placeHolder,
        password: request.password,
        ignoreFocusOut: true,
        validateInput: limitedValidation(request),
      }),
    );
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    return (await this.choose({ message: request.message, detail: request.detail, actions: [request.action] })) === request.action;
  }

  async choose(request: ChoiceRequest): Promise<string | undefined> {
    // The last door before the person: the modal quotes workspace text (a name, a request body).
    // The message is what moves, never cut: shared bounds each part of it (a name 64, each destination
    // and an unknown fee's reason 256 shown characters), so this cap only stops text no caller makes.
    const message = sanitizeUntrustedText(request.message, MESSAGE_CAP);
    return vscode.window.showWarningMessage(message, { modal: true, detail: sanitizeUntrustedText(request.detail, 8000) }, ...request.actions);
  }
}
