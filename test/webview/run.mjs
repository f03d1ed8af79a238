/**
 * Runs the webview component tests (test/webview/**\/*.test.mjs) in real
 * Chromium with mocha's Node API; exits non-zero when one fails.
 *
 *   node test/webview/run.mjs                 # every test file
 *   node test/webview/run.mjs markdown xss    # files whose path contains one of the words
 *   node test/webview/run.mjs --grep "copy"   # tests whose title matches
 *
 * Needs a built bundle: npx webpack --mode production --config-name webview
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';
import { WEBVIEW_DIST } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const grepAt = args.indexOf('--grep');
const grep = grepAt >= 0 ? args.splice(grepAt, 2)[1] : undefined;
const words = args;

const bundle = path.join(WEBVIEW_DIST, 'webview.js');
if (!fs.existsSync(bundle)) {
  console.error('dist/webview/webview.js is missing: run `npx webpack --mode production --config-name webview` first.');
  process.exit(1);
}
warnIfStale(bundle);

const files = fs
  .readdirSync(here, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.mjs') && !f.split(path.sep).includes('node_modules'))
  .filter((f) => words.length === 0 || words.some((w) => f.includes(w)))
  .sort()
  .map((f) => path.join(here, f));
if (files.length === 0) {
  console.error(`No test files matched ${words.join(', ') || '*.test.mjs'}.`);
  process.exit(1);
}

const mocha = new Mocha({ timeout: 60_000, slow: 3_000, reporter: process.env.MOCHA_REPORTER ?? 'spec', grep });
for (const file of files) mocha.addFile(file);
await mocha.loadFilesAsync();
mocha.run((failures) => {
  // Pages left open by a failed test keep Chromium alive: exit explicitly.
  process.exit(failures > 0 ? 1 : 0);
});

/** A bundle older than the webview sources tests yesterday's code: say so. */
function warnIfStale(file) {
  const built = fs.statSync(file).mtimeMs;
  const sources = path.resolve(here, '..', '..', 'webview');
  const newer = fs
    .readdirSync(sources, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && fs.statSync(path.join(sources, f)).mtimeMs > built);
  if (newer.length > 0) {
    console.warn(
      `warning: dist/webview/webview.js is older than ${newer.slice(0, 3).join(', ')}${newer.length > 3 ? ', …' : ''}; rebuild it.`,
    );
  }
}
