/**
 * Installs one pinned npm package of a real agent into its own folder of the test cache (never
 * the project's node_modules), once: a marker file in MARKERS says it was installed and checked.
 *
 *   await installPinned({
 *     label: 'opencode-agent', dir, spec: 'opencode-ai@1.18.33', stamp: '1.18.33',
 *     isInstalled: async () => ...,   // cheap: the right versions and files are there (no process)
 *     works: async () => ...,         // full: the agent really starts; run after an install only
 *   });
 *
 * `node24`: npm runs with the harness's Node 24 first on PATH (npm checks `engines` against the
 * node it runs on). `ignoreScripts`: no install scripts (an agent's postinstall that only picks
 * or downloads a binary the package already has).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { nestedNpmEnv } from '../harness/npmEnv.mjs';
import { MARKERS, NODE24, NODE24_BIN_DIR } from '../harness/paths.mjs';

function run(log, cmd, args, options) {
  return new Promise((resolve, reject) => {
    log(`$ ${cmd} ${args.join(' ')}   (in ${options.cwd})`);
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

async function markerStamp(file) {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')).stamp;
  } catch {
    return undefined;
  }
}

/** The version in `<dir>/node_modules/<name>/package.json`, or undefined. */
export async function installedVersion(dir, name) {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8'))
      .version;
  } catch {
    return undefined;
  }
}

/**
 * @param {{ label: string, dir: string, spec: string, stamp: string, node24?: boolean, ignoreScripts?: boolean,
 *   isInstalled: () => Promise<boolean>, works: () => Promise<boolean | string> }} options
 */
export async function installPinned({
  label,
  dir,
  spec,
  stamp,
  node24 = false,
  ignoreScripts = false,
  isInstalled,
  works,
}) {
  const log = (line) => process.stderr.write(`[${label}] ${line}\n`);
  const marker = path.join(MARKERS, `${label}.json`);
  const start = Date.now();
  if ((await isInstalled()) && (await markerStamp(marker)) === stamp) {
    log(`${spec}: done already (${Date.now() - start} ms)`);
    return;
  }
  if (node24 && !existsSync(NODE24)) {
    throw new Error(`Node 24 is missing (${NODE24}): run node test/harness/setup.mjs first`);
  }
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: `vscode-acp-${label}`, private: true }, null, 2) + '\n',
  );
  const env = nestedNpmEnv(node24 ? { PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}` } : {});
  const args = [
    'install',
    '--save-exact',
    ...(ignoreScripts ? ['--ignore-scripts'] : []),
    spec,
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ];
  await run(log, 'npm', args, { cwd: dir, env });
  if (!(await isInstalled())) throw new Error(`${spec} installed, but its files are not where expected in ${dir}`);
  const checked = await works();
  if (!checked) throw new Error(`${spec} installed, but it does not start`);
  if (typeof checked === 'string') log(`check: ${checked}`);
  await fs.mkdir(MARKERS, { recursive: true });
  await fs.writeFile(marker, JSON.stringify({ stamp, at: new Date().toISOString() }) + '\n');
  log(`${spec}: installed in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}
