#!/usr/bin/env node
// The walkthrough's images are screenshots the end-to-end run took: extension/scripts/e2e.mjs
// copies them here after a passing run, with media/walkthrough/sources.json naming each one's
// screenshot and digest (extension/test/unit/manifest.test.ts checks the images against it).
//   node extension/scripts/walkthrough-media.mjs [resultsDir]
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const WALKTHROUGH_MEDIA = join(extensionDir, "media", "walkthrough");
export const E2E_RESULTS = join(extensionDir, "test-results", "e2e");

/** Each walkthrough image and the screenshot of extension/test/e2e it is (Workbench.screenshot's name). */
export const WALKTHROUGH_SHOTS = {
  "connect.png": "walkthrough-connect",
  "accounts.png": "walkthrough-accounts",
  "dry-run.png": "walkthrough-dry-run",
  "confirm.png": "walkthrough-confirm",
};

export function sha256(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Copies the screenshots (NN-name.png) of `resultsDir` into media/walkthrough/; returns what sources.json records. */
export function copyWalkthroughMedia(resultsDir = E2E_RESULTS) {
  const taken = readdirSync(resultsDir);
  mkdirSync(WALKTHROUGH_MEDIA, { recursive: true });
  const sources = {};
  for (const [image, shot] of Object.entries(WALKTHROUGH_SHOTS)) {
    const screenshot = taken.find((file) => new RegExp(`^\\d+-${shot}\\.png$`).test(file));
    if (screenshot === undefined) throw new Error(`the end-to-end run in ${resultsDir} took no ${shot} screenshot for the walkthrough's ${image}`);
    copyFileSync(join(resultsDir, screenshot), join(WALKTHROUGH_MEDIA, image));
    sources[image] = { screenshot, sha256: sha256(join(WALKTHROUGH_MEDIA, image)) };
  }
  writeFileSync(join(WALKTHROUGH_MEDIA, "sources.json"), `${JSON.stringify(sources, null, 2)}\n`);
  return sources;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(copyWalkthroughMedia(process.argv[2] ?? E2E_RESULTS), null, 2)}\n`);
}
