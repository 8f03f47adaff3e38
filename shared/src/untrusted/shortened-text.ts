import { oneLineUntrusted } from "./untrusted-text.js";

/** An escape the sanitiser writes (`\u{200B}`) or its count of a long run (`[+41 hidden]`): never cut in two. */
const SHOWN_ESCAPE = /\\u\{[0-9A-F]{4,6}\}|\[\+\d+ hidden\]/g;

/** The last place at or before `end` that is not inside an escape or a surrogate pair. */
function safeCut(shown: string, end: number): number {
  let cut = end;
  for (const match of shown.matchAll(SHOWN_ESCAPE)) {
    if (match.index >= cut) break;
    if (match.index + match[0].length > cut) cut = match.index;
  }
  return /[\uD800-\uDBFF]/.test(shown.charAt(cut - 1)) ? cut - 1 : cut;
}

/**
 * Workspace text (an account's name, an address another operator chose) sanitised, on one line
 * (a break or tab shown as an escape: it cannot start a line of its own) and held to a
 * budget of shown characters, so that what follows it on screen is never pushed out: a longer one
 * keeps its beginning, cut between escapes, and says how long it was (`…[name cut: 2,167 characters]`).
 * The caller shows what identifies it beside it (an account's id).
 */
export function shortenedText(text: string, budget: number, what = "name"): string {
  const shown = oneLineUntrusted(text, Number.POSITIVE_INFINITY);
  if (shown.length <= budget) return shown;
  return `${shown.slice(0, safeCut(shown, budget))}…[${what} cut: ${shown.length.toLocaleString("en-US")} characters]`;
}
