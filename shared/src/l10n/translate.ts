/**
 * How shared's text reaches a person in their language: every builder of user-facing text takes a
 * translator with vscode.l10n.t's contract, a template written as one literal with `{0}`, `{1}`
 * placeholders, then the values. The default, `english`, fills the placeholders: the MCP server's
 * (model-facing) text and every English surface. The extension passes vscode.l10n.t, and its
 * bundle (l10n/bundle.l10n.json) translates each template; a call of `t` or `localText` with a literal is
 * how the bundle's extraction finds shared's templates, so a template is always a literal there.
 */
export type Translate = (message: string, ...args: Array<string | number>) => string;

/** The template with its placeholders filled, as vscode.l10n.t does without a bundle. */
export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });

/** A text kept as its template and values, for text made before anyone knows who reads it (an error thrown deep in unit math). */
export interface LocalText {
  readonly template: string;
  readonly args: ReadonlyArray<string | number | LocalText>;
}

/** A text to render later; values may be texts themselves, each translated on its own. */
export function localText(template: string, ...args: Array<string | number | LocalText>): LocalText {
  return { template, args };
}

/** Texts one after another, separated by "; " or ", " (each a template of its own): a list a sentence quotes. */
export function joinedText(items: ReadonlyArray<string | number | LocalText>, separator: "; " | ", " = "; "): string | number | LocalText {
  const [first, ...rest] = items;
  if (first === undefined) return "";
  const pair = (joined: string | number | LocalText, item: string | number | LocalText) =>
    separator === "; " ? localText("{0}; {1}", joined, item) : localText("{0}, {1}", joined, item);
  return rest.reduce(pair, first);
}

/** The text in the translator's language; its values first, then its own template. */
export function renderText(text: LocalText, t: Translate = english): string {
  return t(text.template, ...text.args.map((arg) => (typeof arg === "object" ? renderText(arg, t) : arg)));
}

/** A value that may be a text (a list joinedText made, a name or "nobody"), as a string in the translator's language. */
export function renderValue(value: string | number | LocalText, t: Translate = english): string {
  return typeof value === "object" ? renderText(value, t) : String(value);
}

/** An error whose message is a LocalText (an AmountError): shown translated where the reader's language is known. */
export interface TranslatableError extends Error {
  readonly text: LocalText;
}

function isTranslatable(error: unknown): error is TranslatableError {
  return error instanceof Error && "text" in error && typeof error.text === "object" && error.text !== null && "template" in error.text;
}

/** The text an error carries, or undefined (its message is all there is). */
export function errorText(error: unknown): LocalText | undefined {
  return isTranslatable(error) ? error.text : undefined;
}

/** The error's message through the translator when it carries its text, else undefined (the caller shows it as it is). */
export function translatedError(error: unknown, t: Translate): string | undefined {
  const text = errorText(error);
  return text === undefined ? undefined : renderText(text, t);
}

/** An error made of a text (the road's rejection of a write, handed on as an error): its message in English, its text beside it. */
export class TextError extends Error implements TranslatableError {
  constructor(readonly text: LocalText) {
    super(renderText(text));
    this.name = "TextError";
  }
}
