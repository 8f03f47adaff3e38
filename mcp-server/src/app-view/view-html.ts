/** Set by build.mjs in the bundle: the view's HTML, built when the bundle is built (confirm-view.mjs). */
declare const CUSTODY_CONFIRM_VIEW_HTML: string | undefined;

let html: Promise<string> | undefined;

/**
 * The confirmation view's HTML document. The bundle carries it (in a chunk of its own, loaded by the
 * first read); from the sources (the tests) it is built on first use by the script build.mjs runs,
 * with esbuild from the development dependencies.
 */
export function confirmViewHtml(): Promise<string> {
  html ??= typeof CUSTODY_CONFIRM_VIEW_HTML === "string" ? Promise.resolve(CUSTODY_CONFIRM_VIEW_HTML) : fromSources();
  return html;
}

async function fromSources(): Promise<string> {
  // A computed specifier: neither tsc nor the bundle resolves it (the bundle never comes here).
  const script = new URL("../../confirm-view.mjs", import.meta.url).href;
  const built = (await import(script)) as { confirmViewHtml(): Promise<string> };
  return built.confirmViewHtml();
}
