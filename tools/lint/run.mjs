/**
 * `npm run lint`: checks that the layer rules still refuse what they are
 * there to refuse, then lints and checks the formatting of the whole
 * repository. `npm run format` (`--fix`): formats, fixes what the linter
 * can, and formats what it fixed. Both tools come from this folder's own
 * install (see its package.json).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withStagesTable } from '../../test/stages.mjs';
import { notesProblems, referencePage } from '../docs/reference.mjs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { MAX_FILES, MAX_LINES, shapeProblems, sourceTree } from './shape.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const fix = process.argv.includes('--fix');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(here, 'eslint.config.mjs'), fix });

/** Imports each layer must refuse: [a file in that layer, what it imports]. */
const CROSSINGS = [
  ['src/shared/thread/thread.ts', 'vscode'],
  ['src/shared/thread/thread.ts', 'node:fs'],
  ['src/shared/page/protocol.ts', '../../chat/chat'],
  ['src/shared/events.ts', '../chat/chat'],
  ['src/shared/thread/thread.ts', '../../chat/chat'],
  ['src/chat/composer/chatComposer.ts', '../../history/historyStore'],
  ['src/chat/chat.ts', '../../src-node/nodePlatform'],
  ['src/chat/chat.ts', '../../webview/chat-app/chat-app'],
  ['src/extension.ts', '../src-web/webPlatform'],
  ['src-node/nodePlatform.ts', '../src-web/webPlatform'],
  ['src-web/webPlatform.ts', '../src-node/nodePlatform'],
  ['webview/chat-app/chat-app.ts', '../../src/chat/chat'],
  ['webview/chat-app/chat-app.ts', 'vscode'],
  ['webview/chat-app/chat-app.ts', 'node:path'],
  ['src/chat/chat.ts', '../history/historyStore'],
  ['src/connection/agentClient.ts', '../session/chatSession'],
  ['src/agents/agentList.ts', '../connection/agentConnections'],
  ['src/platform.ts', './chat/chats'],
  ['src/shared/thread/thread.ts', 'lit'],
  ['webview/markdown/markdown.ts', '../chat-app/chat-app'],
  ['webview/shared/codicons.ts', '../markdown/markdown'],
  ['src/session/chatLink.ts', 'vscode'],
  ['src/connection/agentClient.ts', 'vscode'],
  ['src/chat/chat.ts', 'vscode'],
];

async function layersHold() {
  const leaks = [];
  for (const [file, target] of CROSSINGS) {
    const [result] = await eslint.lintText(`import * as x from '${target}';\nexport { x };\n`, {
      filePath: path.join(root, file),
    });
    const refused = result.messages.some((m) => /(^|\/)no-restricted-imports$/.test(m.ruleId ?? ''));
    if (!refused) leaks.push(`${file} may import ${target}`);
  }
  if (leaks.length > 0) {
    throw new Error(`the layer rules in tools/lint/eslint.config.mjs no longer hold:\n  ${leaks.join('\n  ')}`);
  }
}

/** The shape rules refuse a made-up tree past each limit (as the layer rules are shown refusing), then hold here. */
function shapeHolds() {
  const lines = (n) => 'x\n'.repeat(n);
  const made = new Map([
    ['src/a/long.ts', lines(MAX_LINES + 1)],
    ['src/a/one.ts', "import { two } from './two';\n"],
    ['src/a/two.ts', "import type { one } from './one';\n"],
    ...Array.from({ length: MAX_FILES + 1 }, (_, i) => [`src/b/f${i}.ts`, lines(1)]),
  ]);
  const refused = shapeProblems(made);
  const expected = [/^src\/a\/long\.ts lines: 351/, /^src\/b\/ files: 13/, /^src\/a\/one\.ts <-> src\/a\/two\.ts/];
  const missed = expected.filter((re) => !refused.some((p) => re.test(p)));
  if (missed.length > 0) {
    throw new Error(`the shape rules (tools/lint/shape.mjs) no longer refuse: ${missed.join(', ')}`);
  }
  const problems = shapeProblems(sourceTree(root));
  for (const problem of problems) console.log(`shape: ${problem}`);
  return problems.length === 0;
}

function prettier(...args) {
  const { status, error } = spawnSync(
    path.join(here, 'node_modules/.bin/prettier'),
    [...args, '--log-level', 'warn', '.'],
    { cwd: root, stdio: 'inherit' },
  );
  if (error) {
    throw new Error(`prettier did not start (${error.message}): run npm install at the repository's root`, {
      cause: error,
    });
  }
  return status === 0;
}

async function lint() {
  const results = await eslint.lintFiles(['.']);
  if (fix) await ESLint.outputFixes(results);
  const text = (await eslint.loadFormatter('stylish')).format(results);
  if (text) console.log(text);
  return results.every((r) => r.errorCount === 0);
}

/** `file` (from the repository's root) is what `make` makes of it; `--fix` writes it. */
function madeFileHolds(file, make, why) {
  const filePath = path.join(root, file);
  const text = fs.existsSync(filePath) ? fs.readFileSync(filePath, 'utf8') : '';
  const made = make(text);
  if (made === text) return true;
  if (fix) {
    fs.writeFileSync(filePath, made);
    return true;
  }
  console.error(`${file}: ${why} (node tools/lint/run.mjs --fix)`);
  return false;
}

/** docs/development.md's table of test stages is test/stages.mjs's; docs/reference.md is package.json's. */
function madeDocsHold() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const problems = notesProblems(pkg);
  for (const problem of problems) console.error(problem);
  const stages = madeFileHolds(
    'docs/development.md',
    withStagesTable,
    'its table of test stages differs from test/stages.mjs',
  );
  const reference = madeFileHolds(
    'docs/reference.md',
    () => referencePage(pkg),
    'it differs from what package.json makes',
  );
  return problems.length === 0 && stages && reference;
}

await layersHold();
const shaped = shapeHolds() && madeDocsHold();
// The linter's fixes (braces, say) are formatted again.
const ok = fix ? prettier('--write') && (await lint()) && prettier('--write') : (await lint()) && prettier('--check');
process.exit(ok && shaped ? 0 : 1);
