// The one definition of the characters a reader of workspace text may not see: every control
// (Cc: C0 and C1) but tab and newline, every format character (Cf: zero-width characters,
// bidirectional marks, embeddings, overrides and isolates, the BOM, U+00AD, U+180E, the Unicode
// tag characters U+E0001 and U+E0020-E007F), lone surrogates (Cs), the line and paragraph
// separators U+2028 and U+2029 (Zl, Zp), and every other Default_Ignorable_Code_Point (variation
// selectors U+FE00-FE0F and U+E0100-E01EF, U+034F, the Hangul fillers U+115F, U+1160, U+3164,
// U+FFA0, the unassigned tag block U+E0000-E0FFF...). A model reads them; a person does not see them.

/** C0 and C1 controls other than tab and newline: dropped. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

const HIDDEN = String.raw`[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]`;
const HIDDEN_RUN = new RegExp(`${HIDDEN}+`, "gu");
const ONE_HIDDEN = new RegExp(`^${HIDDEN}$`, "u");

/** A run longer than this shows its first escapes and a count: a long run (a tag-character payload) must not become a readable message. */
const ESCAPES_SHOWN = 3;

/** Whether the display changes this one character (drops it, or shows it escaped). */
export function isHiddenCharacter(character: string): boolean {
  return ONE_HIDDEN.test(character);
}

/** "U+202E": how a message names a character. */
export function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `\u{202E}`: a hidden character made visible. */
function visibleEscape(character: string): string {
  return `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`;
}

function showRun(run: string): string {
  const escaped = [...run].filter((character) => !CONTROL.test(character)).map(visibleEscape);
  if (escaped.length <= ESCAPES_SHOWN) return escaped.join("");
  return `${escaped.slice(0, ESCAPES_SHOWN).join("")}[+${escaped.length - ESCAPES_SHOWN} hidden]`;
}

/**
 * The text with every control but tab and newline dropped and every other hidden character shown
 * as a visible escape (`\u{200B}`; a run of more than three as the first three and a count), so a
 * person sees that something was there and a model gets no hidden text, no reordering, no break.
 */
export function revealHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_RUN, showRun);
}

/**
 * The text with its line breaks and tabs shown as escapes too: for a value shown on one line of
 * its own (a name, an address, a summary), where a break would let workspace text begin a line
 * that reads as another fact ("Recipient: ...").
 */
export function revealLineBreaks(text: string): string {
  return text.replace(/[\n\t]/g, visibleEscape);
}
