import { revealHiddenCharacters, revealLineBreaks } from "./hidden-characters.js";

// Text that comes back from the workspace (notes, labels, names, error bodies) is data written by
// someone else: it may try to steer an AI assistant or to disguise itself on screen.

/** The longest text shown by default; a longer one is cut and says so. */
export const DEFAULT_SHOWN_LENGTH = 2000;

/** Printable ASCII, tab and newline: text in which nothing is hidden, so the steps below leave it as it is. */
const PLAIN_TEXT = /^[\t\n\x20-\x7E]*$/;

/**
 * The text as it may be shown: CRLF folded to LF, controls other than tab and newline dropped,
 * every other hidden character (format, bidirectional, zero-width, tag, separator, default
 * ignorable; see hidden-characters.ts) shown as a visible escape, then cut to `maxLength`.
 */
export function sanitizeUntrustedText(text: string, maxLength = DEFAULT_SHOWN_LENGTH): string {
  // Most workspace text is plain ASCII: answered without the Unicode property scan (every answer's strings pass here, some twice).
  if (text.length <= maxLength && PLAIN_TEXT.test(text)) return text;
  const clean = revealHiddenCharacters(text.replace(/\r\n?/g, "\n"));
  if (clean.length <= maxLength) return clean;
  // Never cut a surrogate pair in two: half of one is a hidden character again.
  const end = /[\uD800-\uDBFF]/.test(clean.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
  return `${clean.slice(0, end)}…[truncated]`;
}

/**
 * Workspace text kept on one line wherever it is shown: sanitised, then its line breaks and tabs
 * shown as escapes, so it cannot begin a line that reads as a fact ("Recipient: ...").
 */
export function oneLineUntrusted(text: string, maxLength = DEFAULT_SHOWN_LENGTH): string {
  return revealLineBreaks(sanitizeUntrustedText(text, maxLength));
}

const MARKER = /<\/?\s*untrusted/gi;
/** What every delimiter, whole or not, holds. */
const UNTRUSTED_WORD = /untrusted/i;

/** A whole delimited segment holding no other delimiter: what delimitUntrusted writes. */
const SEGMENT = /<untrusted field="[A-Za-z0-9_.[\]-]*">((?:(?!<\/?\s*untrusted)[^])*)<\/untrusted>/gi;

/**
 * The text with each whole delimited segment in it reduced to its body: text delimited once (an
 * error's body inside its message) and delimited again as a whole is untrusted throughout, so
 * the inner delimiters go; a delimiter that is not part of a whole segment stays, to be defused.
 */
function withoutInnerSegments(text: string): string {
  let flat = text;
  for (let previous = ""; previous !== flat;) {
    previous = flat;
    flat = flat.replace(SEGMENT, "$1");
  }
  return flat;
}

/**
 * Sanitised text wrapped in explicit delimiters, so that a reader (person or model) can
 * tell workspace data from instructions. A delimiter inside the text is defused; a whole
 * delimited segment inside it is reduced to its body (never nested, never a defused "‹untrusted").
 */
export function delimitUntrusted(field: string, text: string): string {
  const clean = sanitizeUntrustedText(text);
  // Both steps below need the word: without it (most text), they would only scan it.
  const body = UNTRUSTED_WORD.test(clean) ? withoutInnerSegments(clean).replace(MARKER, (match) => match.replace("<", "‹")) : clean;
  return `<untrusted field="${field.replace(/[^A-Za-z0-9_.[\]-]/g, "")}">${body}</untrusted>`;
}
