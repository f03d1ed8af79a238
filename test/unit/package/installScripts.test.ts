/**
 * `npm install` must work on a machine that reaches only the npm registry, and download no
 * browser anywhere. Install scripts are where that breaks (Playwright's browser download did), so
 * every dependency with one must be reviewed in package.json's `allowScripts`, and none may be a
 * browser download. (npm 11 honours `allowScripts`; older npm runs every script, which is why the
 * browser download is kept out of the tree altogether, not merely denied.)
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

/** Every package of the lockfile: its name, and whether its install runs a script. */
function lockedPackages(): Array<{ name: string; hasInstallScript: boolean }> {
  const lock = readJson('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([where]) => where !== '')
    .map(([where, entry]) => ({
      name: where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length),
      hasInstallScript: !!entry.hasInstallScript,
    }));
}

describe('install scripts of the dependencies', () => {
  it('each one is reviewed in package.json allowScripts', () => {
    const reviewed = Object.keys(readJson('package.json').allowScripts ?? {});
    const unreviewed = lockedPackages().filter((p) => p.hasInstallScript && !reviewed.includes(p.name));
    assert.deepEqual(
      unreviewed.map((p) => p.name),
      [],
    );
  });

  it('none downloads a browser (the tests use Debian Chromium)', () => {
    const browserDownloads = /^(@playwright\/browser-|puppeteer$|electron$|chromedriver$)/;
    assert.deepEqual(
      lockedPackages()
        .filter((p) => browserDownloads.test(p.name))
        .map((p) => p.name),
      [],
    );
  });
});
