/**
 * `npm run icon`: images/icon.png (128x128, the Marketplace's size) drawn from images/icon.svg by Debian's Chromium,
 * so that the PNG in the repository is always the SVG's. Run it after changing the SVG, and commit both.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, REPO_ROOT } from '../test/harness/paths.mjs';

const SIZE = 128;
const svg = fs.readFileSync(path.join(REPO_ROOT, 'images', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}img{display:block;width:${SIZE}px;height:${SIZE}px}</style>` +
      `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`,
  );
  await page.locator('img').evaluate((img) => img.decode());
  const out = path.join(REPO_ROOT, 'images', 'icon.png');
  await page.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  console.log(`${path.relative(REPO_ROOT, out)}: ${fs.statSync(out).size} bytes`);
} finally {
  await browser.close();
}
