/**
 * UI test (issue 46, item 9): installing a built-in agent in the real workbench (code-server, Node extension host) at
 * the Secondary Side Bar's default width, with the real npm against a stub registry on 127.0.0.1 (no network): the
 * chat's Install shows what will run (the version the registry names, the folder in the extension's storage) in a
 * modal and runs nothing until Install is pressed; then npm runs in a terminal the user sees, the program lands in
 * that folder (not global), and the chat finds the agent. Screenshot: test-results/ui-install.png (the modal).
 *
 * Run after `npm run build`: node test/ui/install.ui.mjs
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');
/** A built-in agent's package (Cline: `cline --acp`), at a version no real registry has. */
const PACKAGE = 'cline';
const VERSION = '9.9.9';

/** The stub package's tarball, made by `npm pack`. */
function stubTarball(dir) {
  const pkg = path.join(dir, 'pkg');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: PACKAGE, version: VERSION, bin: { cline: 'cline.js' }, engines: { node: '>=18' } }),
  );
  fs.writeFileSync(path.join(pkg, 'cline.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: pkg, encoding: 'utf8' });
  return fs.readFileSync(path.join(dir, name.trim()));
}

/** A registry that knows the stub package only; what npm asked for is recorded. */
async function stubRegistry(tarball) {
  const asked = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url);
    const base = `http://127.0.0.1:${server.address().port}`;
    if (req.url === `/${PACKAGE}`) {
      const dist = {
        tarball: `${base}/${PACKAGE}/-/${PACKAGE}-${VERSION}.tgz`,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      };
      const version = { name: PACKAGE, version: VERSION, bin: { cline: 'cline.js' }, engines: { node: '>=18' }, dist };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: PACKAGE, 'dist-tags': { latest: VERSION }, versions: { [VERSION]: version } }));
    } else if (req.url === `/${PACKAGE}/-/${PACKAGE}-${VERSION}.tgz`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(tarball);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, asked, close: () => server.close() };
}

export async function runInstallUiTest() {
  fs.mkdirSync(RESULTS, { recursive: true });
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ui-install-')));
  const folder = path.join(scratch, 'folder');
  fs.mkdirSync(folder);
  const registry = await stubRegistry(stubTarball(scratch));
  const wb = await openWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    folder,
    userSettings: { 'vscode-acp.defaultAgent': PACKAGE },
    // npm (in the extension host and in its terminal) asks the stub only, with a cache of its own.
    env: {
      npm_config_registry: registry.url,
      npm_config_cache: path.join(scratch, 'npm-cache'),
      npm_config_update_notifier: 'false',
    },
  });
  const { page } = wb;
  try {
    await runCommand(page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(page, 'acp-chat-app');
    await chat.getByText('Cline is not installed').first().waitFor({ timeout: 30_000 });
    await chat.getByRole('button', { name: 'Install', exact: true }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText(`Install Cline ${VERSION}?`).waitFor({ timeout: 30_000 });
    const detail = await dialog.locator('.dialog-message-detail').innerText();
    const prefix = /--prefix (\S+) /.exec(detail)?.[1];
    assert.ok(prefix && prefix.endsWith(path.join('agents', 'cline')), detail);
    assert.match(detail, new RegExp(`--engine-strict --no-audit --no-fund ${PACKAGE}@${VERSION}`));
    assert.match(detail, /not a global install/);
    assert.ok(!registry.asked.some((u) => u.endsWith('.tgz')), 'nothing fetched before Install');
    const shot = path.join(RESULTS, 'ui-install.png');
    await page.screenshot({ path: shot });
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await page
      .locator('.terminal-tab, .tabs-container .tab')
      .filter({ hasText: `Install Cline ${VERSION}` })
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => {});
    await chat.getByText('Cline is installed: Connect to start it.').waitFor({ timeout: 120_000 });
    await chat.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    assert.ok(fs.existsSync(path.join(prefix, 'node_modules', '.bin', 'cline')), 'its program is in its folder');
    assert.ok(
      registry.asked.some((u) => u.endsWith('.tgz')),
      'fetched from the stub',
    );
    return shot;
  } catch (error) {
    await page.screenshot({ path: path.join(RESULTS, 'ui-install-failed.png') }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
    registry.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const shot = await runInstallUiTest();
  process.stdout.write(`screenshot: ${shot}\n`);
}
