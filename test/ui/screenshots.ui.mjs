/**
 * `npm run screenshots`: the pictures of the README and the walkthrough (images/*.png), made from the real workbench
 * (code-server, the packaged .vsix installed as a user installs it, no development host) at 1280x800, light and dark,
 * with a scripted agent that answers as an agent does: a thought, a plan, a file read and two edits as tool calls
 * with their diffs, a code block, the files changed on disk. Pictures: the chat beside the editor where the agent's
 * change is marked with Keep and Undo (`chat-*.png`), the Sessions view (`sessions-*.png`) and the walkthrough
 * (`walkthrough-*.png`). Each is checked to be a PNG of the window's size. The `screenshots` stage runs it.
 *
 * Run: node test/ui/screenshots.ui.mjs [--out DIR] (default images/; packs the .vsix first)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { scriptedAgentSettings, setColorTheme } from '../harness/scriptedAgent.mjs';
import { checkPackage, pngSize } from '../checks/vsixPackage.mjs';

const SIZE = { width: 1280, height: 800 };
const CONFIG = `export interface Config {
  host: string;
  port: number;
}

export function parseConfig(text: string): Config {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const port = Number(raw.port ?? 8080);
  return { host: String(raw.host ?? 'localhost'), port };
}
`;
const FIXED = CONFIG.replace(
  '  const port = Number(raw.port ?? 8080);\n',
  '  const port = Number(raw.port ?? 8080);\n  if (!Number.isInteger(port) || port < 1 || port > 65535) {\n' +
    '    throw new RangeError(`port ${raw.port} is not between 1 and 65535`);\n  }\n',
);
const TEST = `import { strict as assert } from 'node:assert';
import { parseConfig } from '../src/config';

assert.throws(() => parseConfig('{"port": 0}'), RangeError);
assert.throws(() => parseConfig('{"port": 65536}'), RangeError);
assert.equal(parseConfig('{"port": 443}').port, 443);
`;
const ANSWER =
  '`parseConfig` now refuses a port outside 1–65535 with a `RangeError`, instead of passing `NaN` or `70000` on:\n\n' +
  '```ts\nif (!Number.isInteger(port) || port < 1 || port > 65535) {\n' +
  '  throw new RangeError(`port ${raw.port} is not between 1 and 65535`);\n}\n```\n\n' +
  'The new test covers 0, 65536 and a valid port.';
/** An edit as an agent that writes files itself makes one: its tool call with the diff, then the file on disk. */
const edit = (verb, file, oldText, newText) => [
  {
    toolCall: {
      toolCallId: file,
      title: `${verb} ${file}`,
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: `\${cwd}/${file}`, oldText, newText }],
    },
  },
  { diskWrite: { path: `\${cwd}/${file}`, content: newText, quiet: true } },
];
const SCENARIO = {
  agentCapabilities: { loadSession: true },
  turns: [
    {
      match: 'port',
      steps: [
        { thought: 'The port is read with Number() and never checked: 0, 70000 and NaN all pass.' },
        { plan: [{ content: 'Read the config parser', status: 'completed' }, 'Check the port range', 'Add a test'] },
        {
          toolCall: {
            toolCallId: 'read',
            title: 'Read src/config.ts',
            kind: 'read',
            status: 'completed',
            locations: [{ path: '${cwd}/src/config.ts' }],
          },
        },
        { sleep: 300 },
        ...edit('Edit', 'src/config.ts', CONFIG, FIXED),
        ...edit('Create', 'test/config.test.ts', null, TEST),
        {
          plan: [
            { content: 'Read the config parser', status: 'completed' },
            { content: 'Check the port range', status: 'completed' },
            { content: 'Add a test', status: 'completed' },
          ],
        },
        { stream: { text: ANSWER, chunks: 40, intervalMs: 15 } },
        { update: { sessionUpdate: 'usage_update', used: 41_200, size: 200_000 } },
      ],
    },
  ],
};
const THEMES = [
  { kind: 'light', name: 'Light Modern' },
  { kind: 'dark', name: 'Dark Modern' },
];

async function setTheme(page, theme) {
  await setColorTheme(page, theme.name, theme.kind === 'dark');
  // The webviews take the theme's colours a moment after the workbench.
  await page.waitForTimeout(500);
}

async function openWalkthrough(page) {
  await runCommand(page, 'Welcome: Open Walkthrough...');
  await page.keyboard.type('Get Started with ACP Agents');
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'ACP Agents' }).first().click();
  await page.locator('.gettingStartedContainer .step-title', { hasText: 'Pick or install an agent' }).waitFor();
  await page.waitForTimeout(500);
}

export async function makeScreenshots(out = path.join(REPO_ROOT, 'images')) {
  checkPackage();
  fs.mkdirSync(out, { recursive: true });
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'parse-config-')));
  fs.mkdirSync(path.join(folder, 'src'));
  fs.mkdirSync(path.join(folder, 'test'));
  fs.writeFileSync(path.join(folder, 'src', 'config.ts'), CONFIG);
  const wb = await openWorkbench({
    folder,
    vsix: [path.join(REPO_ROOT, 'vscode-acp.vsix')],
    viewport: SIZE,
    userSettings: {
      'workbench.colorTheme': 'Default Light Modern',
      'workbench.startupEditor': 'none',
      ...scriptedAgentSettings(JSON.stringify(SCENARIO), 'Example Agent'),
    },
  });
  const { page } = wb;
  const shots = [];
  const shot = async (name) => {
    // A focus moved into view can leave the workbench scrolled by a few pixels: the window as it is drawn.
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('body, body *')) {
        if (
          e.scrollTop > 0 &&
          getComputedStyle(e).overflowY === 'hidden' &&
          e.closest('.monaco-scrollable-element') === null
        ) {
          e.scrollTop = 0;
        }
      }
    });
    const file = path.join(out, name);
    await page.screenshot({ path: file });
    shots.push(file);
  };
  try {
    // The walkthrough read first, as on a first install: VS Code follows its steps from when it has read it.
    await openWalkthrough(page);
    // The editor and the chat, side by side: the Explorer closed, as it would be when working with the agent.
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'Go to File...');
    // Into the box itself: typed keys can reach the Welcome page, which held the focus, before the box has it.
    await page.locator('.quick-input-widget .quick-input-box input').fill('config.ts');
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'config.ts' }).first().click();
    await runCommand(page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(page, 'acp-chat-app');
    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    await box.waitFor({ timeout: 30_000 });
    await box.fill('Make parseConfig reject a port outside 1-65535, with a test');
    await box.press('Enter');
    await chat.getByText('The new test covers 0, 65536 and a valid port.').waitFor({ timeout: 30_000 });
    await chat.getByText('2 files changed').waitFor({ timeout: 30_000 });
    const editor = page.locator('.editor-group-container .monaco-editor').first();
    await editor
      .locator('.codelens-decoration')
      .getByText('Keep', { exact: true })
      .first()
      .waitFor({ timeout: 20_000 });
    for (const theme of THEMES) {
      await setTheme(page, theme);
      await shot(`chat-${theme.kind}.png`);
    }
    // The Sessions view, opened under the chat, its agent's sessions listed.
    await page.locator('.pane-header').filter({ hasText: 'Sessions' }).first().click();
    const agentRow = page.locator('.monaco-list-row').filter({ hasText: 'Example Agent' }).first();
    await agentRow.click();
    await page.keyboard.press('ArrowRight');
    await page.locator('.monaco-list-row').filter({ hasText: 'Make parseConfig' }).first().waitFor({ timeout: 20_000 });
    for (const theme of [...THEMES].reverse()) {
      await setTheme(page, theme);
      await shot(`sessions-${theme.kind}.png`);
    }
    // The walkthrough, opened in each theme (the Welcome page goes back to its start when the theme changes).
    for (const theme of THEMES) {
      await setTheme(page, theme);
      await openWalkthrough(page);
      await shot(`walkthrough-${theme.kind}.png`);
    }
  } catch (error) {
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'screenshots-failed.png') }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  for (const file of shots) {
    const size = pngSize(fs.readFileSync(file));
    if (size?.width !== SIZE.width || size?.height !== SIZE.height) {
      throw new Error(`${file}: not a ${SIZE.width}x${SIZE.height} PNG (${JSON.stringify(size)})`);
    }
  }
  return shots;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--out');
  makeScreenshots(at > 0 ? path.resolve(process.argv[at + 1]) : undefined).then(
    (shots) => console.log(shots.map((s) => path.relative(REPO_ROOT, s)).join('\n')),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
