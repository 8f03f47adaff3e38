#!/usr/bin/env node
// Writes l10n/bundle.l10n.json, the English messages a translation starts from: every string the
// extension passes to vscode.l10n.t, keyed by itself (the form @vscode/l10n-dev exports). A unit
// test keeps the committed file equal to what this finds in src/.
//   node extension/scripts/l10n-bundle.mjs
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const L10N_BUNDLE = join(extensionDir, "l10n", "bundle.l10n.json");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every message of `l10n.t("...")` in the extension's sources, sorted, each once. */
export function l10nMessages() {
  const messages = new Set();
  for (const file of sourceFiles(join(extensionDir, "src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(/\bl10n\.t\(\s*("(?:[^"\\]|\\.)*")/g)) messages.add(JSON.parse(match[1]));
  }
  return [...messages].sort();
}

export function l10nBundleText() {
  return `${JSON.stringify(Object.fromEntries(l10nMessages().map((message) => [message, message])), null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(dirname(L10N_BUNDLE), { recursive: true });
  writeFileSync(L10N_BUNDLE, l10nBundleText());
  process.stdout.write(`${L10N_BUNDLE}\n`);
}
