/**
 * Accessibility checks with axe-core, injected into a harness page. The
 * page's CSP forbids inline scripts, so axe is evaluated through the
 * DevTools protocol (as a test tool, not as page content).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths.mjs';

const AXE_SOURCE = fs.readFileSync(path.join(REPO_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe (WCAG 2.x A/AA and best practices) on the page; resolves with the
 * violations as `{ id, impact, help, targets }`.
 */
export async function runAxe(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(`${AXE_SOURCE}\n;void 0`);
  const result = await page.evaluate(() =>
    window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  );
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes
      .slice(0, 5)
      .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary?.split('\n')[1] ?? ''}`.trim()),
  }));
}

/** The violations a test must fail on. */
export const seriousOrWorse = (violations) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');

/** Serious and critical violations on the page, shadow roots included, as "rule: targets" lines. */
export const axeViolations = async (page) =>
  seriousOrWorse(await runAxe(page)).map((v) => `${v.id}: ${v.targets.join(', ')}`);
