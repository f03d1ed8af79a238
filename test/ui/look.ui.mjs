/**
 * Pictures to look at, not a test stage: the real workbench (code-server, Node extension host) at the Secondary
 * Side Bar's default width (292 px at 1440x900) and dragged to 500 px, in a light and a dark theme, showing what
 * issue 45 changed: the question before a local agent starts in Restricted Mode, a permission prompt whose title
 * and command hide what they are (a bidi override, 10,000 combining marks), a plan cut short, a run of notices cut
 * short; and issue 46's: an edit sent without its old text, asked and done, with the toolbar's long picker names. Saves test-results/look-<theme>-<width>-<what>.png.
 *
 * Run after `npm run build`: node test/ui/look.ui.mjs
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { CLAUDE_CONFIG_OPTIONS } from '../fixtures/claudeControls.mjs';
import { lookWorkbench, shoot, sideBarWidth } from './lookHelpers.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');
const many = (count, make) => Array.from({ length: count }, (_, i) => make(i));
const update = (u) => ({ update: u });
const ZALGO = `a${'\u0301'.repeat(10_000)}`;

/** What Claude Code's Write of an existing file sends on ACP v1: its diff without the old text (issue 46, item 2). */
const WRITE = { type: 'diff', path: '${cwd}/notes.md', oldText: null, newText: 'one\nTWO\nthree\nfour\n' };

const SCENARIO = {
  // Pickers with long names, as Claude Code's are.
  configOptions: CLAUDE_CONFIG_OPTIONS,
  turns: [
    // One call id per width: an id is the agent's name for one call.
    ...[292, 500].map((width) => ({
      match: `^rewrite ${width}`,
      steps: [
        {
          toolCall: {
            toolCallId: `w${width}`,
            title: 'Write notes.md',
            kind: 'edit',
            status: 'pending',
            content: [WRITE],
          },
        },
        { permission: { toolCall: { toolCallId: `w${width}` } } },
        { toolCallUpdate: { toolCallId: `w${width}`, status: 'completed', content: [WRITE] } },
        { text: 'Rewrote notes.md.' },
      ],
    })),
    {
      match: '^ask',
      steps: [
        {
          permission: {
            toolCall: {
              toolCallId: 'mv',
              title: 'Rename photo.png to photo\u202egnp.exe',
              kind: 'execute',
              status: 'pending',
              rawInput: { command: ['mv', 'photo.png', `photo\u202egnp.exe`, ZALGO] },
              locations: [{ path: '${cwd}/photo\u202egnp.exe' }],
            },
          },
        },
        { text: 'Renamed.' },
      ],
    },
    {
      match: '^lists',
      steps: [
        update({
          sessionUpdate: 'plan',
          entries: many(100_000, (i) => ({
            content: `Step ${i + 1} of the plan`,
            priority: 'medium',
            status: i < 3 ? 'completed' : 'pending',
          })),
        }),
        ...many(500, (i) => update({ sessionUpdate: 'notice', severity: 'info', title: `Notice ${i + 1}` })),
        { text: `The file is photo\u202egnp.exe, and ${ZALGO} stays on its line.` },
      ],
    },
  ],
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function look(theme) {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-look-')));
  const scenario = path.join(folder, '..', `acp-look-scenario-${process.pid}.json`);
  fs.writeFileSync(scenario, JSON.stringify(SCENARIO));
  fs.writeFileSync(path.join(folder, 'notes.md'), 'one\ntwo\nthree\nfour\n');
  const wb = await lookWorkbench({ theme, folder, scenario, trust: true });
  const { page } = wb;
  try {
    await runCommand(page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(page, 'acp-chat-app');
    const picker = chat.locator('acp-composer-toolbar select[aria-label="Agent"]');
    await picker.locator('option[value="test"]').waitFor({ state: 'attached', timeout: 20_000 });
    await picker.selectOption('test');
    await chat.getByRole('button', { name: 'Connect' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    await shoot(page, `${theme}-292-restricted`);
    await dialog.getByRole('button', { name: 'Connect Once Anyway' }).click();
    await chat
      .getByText('Ask Test Agent something.')
      .waitFor({ timeout: 20_000 })
      .catch(async (error) => {
        await shoot(page, `${theme}-failure`);
        throw error;
      });
    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    for (const width of [292, 500]) {
      if (width !== 292) process.stdout.write(`side bar dragged to ${await sideBarWidth(page, width)} px\n`);
      await box.fill(`ask ${width}`);
      await box.press('Enter');
      const prompt = chat.locator('acp-permission-prompt');
      await prompt.waitFor({ timeout: 20_000 });
      await sleep(500);
      await shoot(page, `${theme}-${width}-permission`);
      await prompt.getByRole('button', { name: 'Reject' }).click();
      await box.fill(`lists ${width}`);
      await box.press('Enter');
      await chat.getByText('stays on its line').waitFor({ timeout: 60_000 });
      await sleep(1000);
      await shoot(page, `${theme}-${width}-lists`);
      await box.fill(`rewrite ${width}`);
      await box.press('Enter');
      await prompt.waitFor({ timeout: 20_000 });
      await sleep(500);
      await shoot(page, `${theme}-${width}-rewrite`);
      await prompt.getByRole('button', { name: 'Allow once' }).click();
      await chat.getByText('Rewrote notes.md.').last().waitFor({ timeout: 20_000 });
      await sleep(500);
      await shoot(page, `${theme}-${width}-rewritten`);
    }
  } finally {
    await wb.close();
    fs.rmSync(scenario, { force: true });
  }
}

fs.mkdirSync(RESULTS, { recursive: true });
for (const theme of process.argv.slice(2).length ? process.argv.slice(2) : ['light', 'dark']) await look(theme);
