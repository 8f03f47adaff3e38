// Text that comes back from the workspace (notes, labels, names) is data written by
// someone else: it may try to steer an AI assistant or to disguise itself on screen.

// C0 and C1 controls other than tab and newline, bidirectional overrides and isolates,
// directional marks, zero-width characters and the BOM.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN_OR_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/** The text with control, bidi and zero-width characters removed and CRLF folded to LF. */
export function sanitizeUntrustedText(text: string, maxLength = 2000): string {
  const clean = text.replace(/\r\n?/g, "\n").replace(HIDDEN_OR_CONTROL, "");
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}…[truncated]` : clean;
}

const MARKER = /<\/?\s*untrusted/gi;

/**
 * Sanitised text wrapped in explicit delimiters, so that a reader (person or model) can
 * tell workspace data from instructions. A delimiter inside the text is defused.
 */
export function delimitUntrusted(field: string, text: string): string {
  const body = sanitizeUntrustedText(text).replace(MARKER, (match) => match.replace("<", "‹"));
  return `<untrusted field="${field.replace(/[^A-Za-z0-9_.[\]-]/g, "")}">${body}</untrusted>`;
}
