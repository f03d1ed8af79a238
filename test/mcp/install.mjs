/**
 * The official MCP conformance suite (npm `@modelcontextprotocol/conformance`), pinned, into the test cache (never the
 * project's node_modules: it needs Node 22 or later and brings its own MCP SDK, express and more). Run with the
 * harness's Node 24.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { CACHE, NODE24 } from '../harness/paths.mjs';
import { installPinned, installedVersion } from '../real-agents/pinnedInstall.mjs';

export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance';
export const CONFORMANCE_VERSION = '0.1.16';
const DIR = path.join(CACHE, 'mcp-conformance');
export const CONFORMANCE_CLI = path.join(DIR, 'node_modules', ...CONFORMANCE_PACKAGE.split('/'), 'dist', 'index.js');

/** The suite's server scenarios, as its `list --server` names them. */
export function serverScenarios() {
  const r = spawnSync(NODE24, [CONFORMANCE_CLI, 'list', '--server'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`conformance list failed: ${r.stderr || r.stdout}`);
  return [...r.stdout.matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1]);
}

export function installConformance() {
  return installPinned({
    label: 'mcp-conformance',
    dir: DIR,
    spec: `${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION}`,
    stamp: CONFORMANCE_VERSION,
    node24: true,
    ignoreScripts: true,
    isInstalled: async () =>
      (await installedVersion(DIR, CONFORMANCE_PACKAGE)) === CONFORMANCE_VERSION && existsSync(CONFORMANCE_CLI),
    works: async () => serverScenarios().includes('server-initialize') && 'lists its server scenarios',
  });
}
