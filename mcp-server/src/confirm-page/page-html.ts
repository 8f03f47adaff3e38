/** HTML-escaped text: every character that could open markup or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const STYLE =
  "body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 " +
  "1rem;color:#111}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:1rem;" +
  "border-radius:6px}button{font-size:1rem;padding:.5rem " +
  "1.25rem;margin-right:1rem}.confirm{background:#0a6b2d;color:#fff;border:0}.decline{background:#fff;" +
  "border:1px solid #888}.go{display:inline-block;font-size:1rem;padding:.5rem " +
  "1.25rem;background:#0a4d8c;color:#fff;text-decoration:none;border-radius:4px}";

/** A whole page: the title and the paragraphs escaped, `form` already built from escaped parts. */
export function pageHtml(title: string, paragraphs: readonly string[], pre: string | null = null, form = ""): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    pre === null ? "" : `<pre id="write">${escapeHtml(pre)}</pre>`,
    form,
    "</body></html>",
  ].join("\n");
}

/** Confirm and Decline, posting back the page's secret and the digest of what was shown. */
export function decisionForm(action: string, secret: string, question: string): string {
  return [
    `<form method="post" action="${escapeHtml(action)}">`,
    `<input type="hidden" name="secret" value="${escapeHtml(secret)}">`,
    `<input type="hidden" name="question" value="${escapeHtml(question)}">`,
    '<button class="confirm" type="submit" name="decision" value="confirm">Confirm</button>',
    '<button class="decline" type="submit" name="decision" value="decline">Decline</button>',
    "</form>",
  ].join("\n");
}

/**
 * What every page answer carries: nothing cached, framed, sniffed, or loaded from anywhere, and no
 * referrer to any other origin. Not `no-referrer`: under it Chromium sends the form's post with
 * `Origin: null`, which a sandboxed frame of any site can send too, so the same-origin check would fail.
 */
export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
} as const;

/** A same-origin link the person follows (a navigation, which the page's CSP does not govern as it does a form's target). */
export function linkHtml(href: string, text: string): string {
  return `<p><a class="go" href="${escapeHtml(href)}">${escapeHtml(text)}</a></p>`;
}
