#!/usr/bin/env node
// Renders the marketplace icon, media/icon.png (128x128, what the marketplace shows), from the
// activity bar's media/custody.svg with Chromium through playwright-core: the same shield, white
// on a dark tile. The PNG is committed; run this again after changing the SVG.
//   node extension/scripts/icon.mjs
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM } from "./setup-e2e.mjs";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ICON_SVG = join(extensionDir, "media", "custody.svg");
export const ICON_PNG = join(extensionDir, "media", "icon.png");
const SIZE = 128;

export async function renderIcon(out = ICON_PNG) {
  const svg = readFileSync(ICON_SVG, "utf8").replace(/width="24" height="24"/, 'width="96" height="96"');
  const html =
    '<html><body style="margin:0;background:transparent"><div ' +
    `style="width:${SIZE}px;height:${SIZE}px;border-radius:24px;background:#1f3a5f;` +
    "color:#fff;display:flex;align-items:center;" +
    `justify-content:center">${svg}</div></body></html>`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"], headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
    await page.setContent(html);
    await page.screenshot({ path: out, omitBackground: true });
  } finally {
    await browser.close();
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await renderIcon()}\n`);
}
