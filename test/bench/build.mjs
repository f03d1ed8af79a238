/**
 * Builds what the bench measures and uses: the production webview and web
 * extension bundles (webpack, quietly), a private copy of the webview, and the
 * message generator (esbuild, for Node), in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../harness/paths.mjs';

const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');

/** A module of test/bench (`name`, TypeScript) bundled for Node into `out`, and imported. */
export async function importForNode(name, out) {
  run('esbuild', [
    path.join(REPO_ROOT, 'test/bench', name),
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--log-level=error',
    `--outfile=${out}`,
  ]);
  return import(pathToFileURL(out).href);
}

function run(command, args) {
  const r = spawnSync(path.join(BIN, command), args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}\n${r.stderr}`,
    );
  }
}

/** `npx webpack --mode production` for the webview and web extension bundles, into dist/. */
function buildBundles() {
  run('webpack', ['--mode', 'production', '--config-name', 'webview', '--config-name', 'web']);
}

/**
 * Builds (unless `build` is false), then copies dist/webview and notes the
 * bundle sizes at once: other builds may rewrite dist/ while the bench runs,
 * and every figure must come from the same build. Bundles test/bench/generate.ts
 * (real reducer and diffEntries) for Node and imports it.
 * Returns `{ generator, generatorPath, webviewDir, sizes, cleanup }` (a Node
 * started apart, for a heap of its own, imports `generatorPath`).
 */
export async function prepare({ build }) {
  if (build) buildBundles();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-'));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const webviewDir = path.join(dir, 'webview');
    fs.cpSync(path.join(REPO_ROOT, 'dist', 'webview'), webviewDir, { recursive: true });
    const sizes = {
      webview: fs.statSync(path.join(webviewDir, 'webview.js')).size,
      webExtension: fs.statSync(path.join(REPO_ROOT, 'dist', 'web', 'extension.js')).size,
    };
    const out = path.join(dir, 'generate.mjs');
    const generator = await importForNode('generate.ts', out);
    return { generator, generatorPath: out, webviewDir, sizes, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
