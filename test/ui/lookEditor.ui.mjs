/**
 * Pictures to look at, not a test stage (issue 48): the real workbench (code-server, Node extension host, VS Code's
 * TypeScript) at the Secondary Side Bar's default width (292 px at 1440x900) and dragged to 500 px, light and dark:
 * an answer after which the chat lists what the agent asked the editor server (problems, a definition, a refusal),
 * and the Quick Fix "Fix with the agent" on the type error, its prompt in the box. Saves
 * test-results/look-<theme>-<width>-editor.png and look-<theme>-fix.png.
 *
 * Run after `npm run build`: node test/ui/lookEditor.ui.mjs [light] [dark]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand, webviewFrame } from '../harness/code-server.mjs';
import { lookWorkbench, shoot, sideBarWidth } from './lookHelpers.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const call = (tool, args) => ({ mcpCall: { tool, arguments: args } });

const SCENARIO = {
  agentCapabilities: { mcpCapabilities: { http: true } },
  turns: [
    {
      match: '^check',
      steps: [
        { text: 'Looking at what VS Code reports for `src/typed.ts`.' },
        call('problems', { path: 'src/typed.ts' }),
        call('definition', { path: 'src/typed.ts', line: 2, character: 27 }),
        call('problems', { path: '/etc/passwd' }),
        { text: '`greet()` returns a string, so `count` must be a `string` too: that is the fix.' },
      ],
    },
  ],
};

async function look(theme) {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-look-editor-')));
  const scenario = path.join(folder, '..', `acp-look-editor-${process.pid}.json`);
  fs.writeFileSync(scenario, JSON.stringify(SCENARIO));
  fs.mkdirSync(path.join(folder, 'src'));
  fs.writeFileSync(
    path.join(folder, 'src', 'greeter.ts'),
    "export class Greeter {\n  greet(): string {\n    return 'hi';\n  }\n}\n",
  );
  fs.writeFileSync(
    path.join(folder, 'src', 'typed.ts'),
    "import { Greeter } from './greeter';\nconst count: number = new Greeter().greet();\nexport { count };\n",
  );
  const wb = await lookWorkbench({ theme, folder, scenario });
  const { page } = wb;
  try {
    // The file open from the Explorer, its error reported (TypeScript checks open files).
    await page.getByRole('treeitem', { name: 'src' }).first().click();
    await page.getByRole('treeitem', { name: 'typed.ts' }).first().click();
    await page
      .locator('.squiggly-error')
      .first()
      .waitFor({ timeout: 90_000 })
      .catch(async (error) => {
        await shoot(page, `${theme}-failure`);
        throw error;
      });
    await runCommand(page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(page, 'acp-chat-app');
    await chat.getByRole('button', { name: 'Connect' }).click();
    await chat.getByText('Ask Test Agent something.').waitFor({ timeout: 20_000 });
    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    for (const width of [292, 500]) {
      if (width !== 292) process.stdout.write(`side bar dragged to ${await sideBarWidth(page, width)} px\n`);
      await box.fill(`check ${width}`);
      await box.press('Enter');
      await chat.getByText('Asked VS Code').last().waitFor({ timeout: 30_000 });
      await sleep(800);
      await shoot(page, `${theme}-${width}-editor`);
    }
    // The Quick Fix on the error: its prompt goes into the box, unsent.
    await page.locator('.view-lines .view-line').nth(1).getByText('count').click();
    await page.keyboard.press('Control+.');
    await page.getByText('Fix with the agent').first().click({ timeout: 10_000 });
    await sleep(1000);
    await shoot(page, `${theme}-fix`);
  } finally {
    await wb.close();
    fs.rmSync(scenario, { force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

for (const theme of process.argv.slice(2).length ? process.argv.slice(2) : ['light', 'dark']) await look(theme);
