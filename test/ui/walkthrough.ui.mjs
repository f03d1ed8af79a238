/**
 * UI test (issue 50): the Get Started walkthrough in the real workbench (code-server, Node extension host), walked as
 * a first-time user walks it. The empty chat's "Get started with ACP agents" opens it; then each step is done for
 * real, not ticked: the first step read (it is what ACP is), the test agent connected, README.md attached with the paperclip, a prompt
 * sent (the agent changes a file), that change opened from the Changes bar, the Sessions view opened. After each, the
 * walkthrough's own list shows that step done, and no other step is done before its time. Screenshots of the
 * walkthrough, light and dark (test-results/ui-walkthrough-light.png, ui-walkthrough-dark.png).
 *
 * Run after `npm run build`: node test/ui/walkthrough.ui.mjs
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { scriptedAgentSettings, setColorTheme } from '../harness/scriptedAgent.mjs';
import { attachReadmeByPaperclip } from './chatPage.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');
const SCENARIO = {
  turns: [
    {
      match: 'greet',
      steps: [
        { diskWrite: { path: '${cwd}/hello.txt', content: 'Hello, walkthrough.\n' } },
        { text: 'Wrote hello.txt.' },
      ],
    },
  ],
};
/** The steps' titles, in order (package.json's contributes.walkthroughs). */
const STEPS = [
  'One chat, any agent',
  'Pick or install an agent, and connect',
  'Ask it something',
  'Give it context',
  'Review what it changed',
  'Come back to a chat',
];

async function until(what, check, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await check();
    if (last === true) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function runWalkthroughUiTest() {
  fs.mkdirSync(RESULTS, { recursive: true });
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ui-walkthrough-')));
  fs.writeFileSync(path.join(folder, 'README.md'), '# A project to get started in\n');
  const wb = await openWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    folder,
    userSettings: {
      'workbench.colorTheme': 'Default Light Modern',
      ...scriptedAgentSettings(JSON.stringify(SCENARIO)),
    },
  });
  const { page } = wb;
  const steps = page.locator('.gettingStartedContainer .getting-started-step');
  /** The titles of the steps the walkthrough shows done. */
  const done = () =>
    steps.evaluateAll((list) =>
      list
        .filter((step) => step.getAttribute('aria-checked') === 'true')
        .map((step) => step.querySelector('.step-title')?.textContent?.trim()),
    );
  const doneUpTo = (n) =>
    until(`the walkthrough to show "${STEPS[n - 1]}" done, and only the steps before it`, async () => {
      const now = await done();
      return JSON.stringify([...now].sort()) === JSON.stringify(STEPS.slice(0, n).sort()) || now;
    });
  try {
    await runCommand(page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(page, 'acp-chat-app');
    await chat.getByRole('button', { name: 'Get started with ACP agents' }).click();
    await page.locator('.gettingStartedContainer').getByText('Get Started with ACP Agents').first().waitFor();
    assert.equal(await steps.count(), STEPS.length, 'every step listed');
    // The chat view is shown: the first step is done.
    await doneUpTo(1);
    await page.screenshot({ path: path.join(RESULTS, 'ui-walkthrough-light.png') });

    await chat.getByRole('button', { name: 'Connect' }).click();
    await chat.locator('acp-chat-header [role="status"]').getByText('Connected').first().waitFor({ timeout: 30_000 });
    await doneUpTo(2);

    // Context before the prompt (the step after it in the list): done out of order, each step on its own event.
    await attachReadmeByPaperclip(page, chat);
    await until('"Give it context" done', async () => (await done()).includes('Give it context') || (await done()));
    assert.ok(!(await done()).includes('Ask it something'), 'no prompt sent yet');

    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    await box.fill('greet the walkthrough');
    await box.press('Enter');
    await chat.getByText('Wrote hello.txt.').waitFor({ timeout: 30_000 });
    await doneUpTo(4);

    await chat.getByRole('button', { name: /^hello\.txt, .*: compare before the agent's change with now$/ }).click();
    await page.locator('.tab').filter({ hasText: 'hello.txt' }).first().waitFor({ timeout: 20_000 });
    // The diff took the walkthrough's place: it is opened again as a user finds it, from the Command Palette.
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page.keyboard.type('Get Started with ACP Agents');
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'ACP Agents' }).first().waitFor();
    await page.keyboard.press('Enter');
    await doneUpTo(5);

    // The Sessions view under the chat, opened: it lists the test agent, where the chat just saved is.
    await page.locator('.pane-header').filter({ hasText: 'Sessions' }).first().click();
    await page.locator('.monaco-list-row').filter({ hasText: 'Test Agent' }).first().waitFor({ timeout: 15_000 });
    await doneUpTo(6);

    // The walkthrough as a user sees it, all done, in a dark theme.
    await setColorTheme(page, 'Dark Modern', true);
    const shot = path.join(RESULTS, 'ui-walkthrough-dark.png');
    await page.screenshot({ path: shot });
    return shot;
  } catch (error) {
    await page.screenshot({ path: path.join(RESULTS, 'ui-walkthrough-failed.png') }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runWalkthroughUiTest().then(
    (shot) => console.log(`walkthrough UI test passed; screenshot: ${shot}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
