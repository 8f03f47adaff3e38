import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { ensureDebianPackages } from "../../../test/support/debian-packages.js";
import type { HeaderRecorder } from "../../../test/support/header-recorder.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Debian's Chromium (installed when missing, as root, as CI runs) through playwright-core, headless; and the folder its screenshots go to. */
export async function launchPageBrowser(shots: string): Promise<{ browser: Browser; shots: string }> {
  const installed = ensureDebianPackages([{ name: "chromium", files: [CHROMIUM] }]);
  if (!installed.ok) throw new Error(installed.reason);
  const folder = join(process.cwd(), "test-results", shots);
  mkdirSync(folder, { recursive: true });
  return { browser: await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true }), shots: folder };
}

/** The transactions the custody service was asked to create (POST /transactions), counted at its door. */
export function transactionPosts(recorder: HeaderRecorder): number {
  return recorder.requests.filter((entry) => entry.method === "POST" && /\/transactions(\?|$)/.test(entry.path)).length;
}
