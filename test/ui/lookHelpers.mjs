/**
 * What the look scripts share: their workbench, the side bar dragged to a width, and a screenshot saved to
 * test-results/look-NAME.png.
 */
import * as path from 'node:path';
import { openWorkbench } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { scriptedAgentSettings } from '../harness/scriptedAgent.mjs';

const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' };

/** The workbench at 1440x900 in `theme` on `folder`, its one agent the test agent playing the scenario file. */
export function lookWorkbench({ theme, folder, scenario, trust = false }) {
  return openWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    folder,
    trust,
    viewport: { width: 1440, height: 900 },
    userSettings: {
      'workbench.colorTheme': THEMES[theme],
      ...scriptedAgentSettings(scenario),
    },
  });
}

const RESULTS = path.join(REPO_ROOT, 'test-results');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Drags the sash at the Secondary Side Bar's left edge until the bar is `width` px wide. */
export async function sideBarWidth(page, width) {
  const bar = page.locator('.part.auxiliarybar');
  const box = await bar.boundingBox();
  let sash;
  for (const candidate of await page.locator('.monaco-sash.vertical').all()) {
    const b = await candidate.boundingBox();
    if (b && Math.abs(b.x + b.width / 2 - box.x) <= 4 && b.height > box.height / 2) sash = b;
  }
  if (!sash) throw new Error("no sash at the side bar's edge");
  const x = sash.x + sash.width / 2;
  const y = sash.y + sash.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x - (width - box.width), y, { steps: 10 });
  await page.mouse.up();
  await sleep(500);
  return Math.round((await bar.boundingBox()).width);
}

export async function shoot(page, name) {
  const file = path.join(RESULTS, `look-${name}.png`);
  await page.screenshot({ path: file });
  process.stdout.write(`${path.relative(REPO_ROOT, file)}\n`);
}
