import { chromium, type Browser } from "playwright-core";
import { ensureDebianPackages } from "../../../test/support/debian-packages.js";

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

/** Debian's Chromium, headless, installed when missing (as root, as CI runs), as the end-to-end set-up installs it. */
export async function launchChromium(): Promise<Browser> {
  const installed = ensureDebianPackages([{ name: "chromium", files: [CHROMIUM] }]);
  if (!installed.ok) throw new Error(installed.reason);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
