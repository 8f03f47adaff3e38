#!/usr/bin/env node
// Writes l10n/bundle.l10n.json, the English messages a translation starts from: every string the
// extension passes to vscode.l10n.t, and every template of shared's text builders the extension
// passes it to (written as t("...") or localText("..."), and the writes' titles), each keyed by
// itself (the form @vscode/l10n-dev exports). A unit test keeps the committed file equal to what
// this finds in extension/src and shared/src.
//   node extension/scripts/l10n-bundle.mjs
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedSrc = resolve(extensionDir, "..", "shared", "src");
/** A string literal in either quote, the form Prettier leaves a template in. */
const LITERAL = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/.source;
/** A template too long for a line: literals joined with `+`, read as the one string they make. */
const ONE = `(?:${LITERAL.slice(1, -1)})`;
const JOINED = `(${ONE}(?:\\s*\\+\\s*${ONE})*)`;
const EXTENSION_CALL = new RegExp(/\bl10n\.t\(\s*/.source + JOINED, "g");
const SHARED_CALL = new RegExp(/\b(?:t|localText)\(\s*/.source + JOINED, "g");
const WRITE_TITLE = new RegExp(/\btitle: /.source + LITERAL, "g");
export const L10N_BUNDLE = join(extensionDir, "l10n", "bundle.l10n.json");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

function literalValue(literal) {
  return literal.startsWith("'") ? JSON.parse(`"${literal.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) : JSON.parse(literal);
}

function joinedValue(joined) {
  return [...joined.matchAll(new RegExp(LITERAL, "g"))].map((match) => literalValue(match[1])).join("");
}

function literals(files, pattern) {
  return files.flatMap((file) => [...readFileSync(file, "utf8").matchAll(pattern)].map((match) => joinedValue(match[1])));
}

/** Every message of `l10n.t("...")` in the extension's sources and of shared's templates, sorted, each once. */
export function l10nMessages() {
  const messages = new Set([
    ...literals(sourceFiles(join(extensionDir, "src")), EXTENSION_CALL),
    ...literals(sourceFiles(sharedSrc), SHARED_CALL),
    ...literals([join(sharedSrc, "kinds", "registry-identities.ts")], WRITE_TITLE),
  ]);
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
