// The confirmation view (view/confirm-view.ts, an MCP App) as one HTML document: the script and
// the style inline, each allowed by its hash in the document's own Content-Security-Policy, which
// allows nothing else (no network, no frames, no forms). build.mjs writes it into the bundle; from
// the sources (the tests) src/app-view/view-html.ts builds it on first use.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { zodEnglishOnly } from "./bundle-options.mjs";

const ENTRY = fileURLToPath(new URL("./view/confirm-view.ts", import.meta.url));
const STYLE = readFileSync(new URL("./view/confirm-view.css", import.meta.url), "utf8").trim();

function sourceHash(text) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The view's HTML. */
export async function confirmViewHtml() {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    legalComments: "none",
    logLevel: "warning",
    plugins: [zodEnglishOnly],
  });
  const script = result.outputFiles[0].text.trim();
  if (/<\/script/i.test(script)) throw new Error("the view's script would close its <script> element");
  const policy = `default-src 'none'; script-src ${sourceHash(script)}; style-src ${sourceHash(STYLE)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1"><title>Confirm a write</title>',
    `<style>${STYLE}</style></head><body><main id="view"><p>Waiting for the write…</p></main>`,
    `<script>${script}</script></body></html>`,
  ].join("\n");
}
