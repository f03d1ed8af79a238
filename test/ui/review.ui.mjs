/**
 * UI test (issue 32): the agent's change reviewed hunk by hunk in an ordinary editor of the real workbench
 * (code-server, Node extension host), by keyboard as a person does it: the test agent edits a file in two places;
 * a comment on one of its lines (VS Code's comments UI) goes to the agent with Send Comments to the Agent, and once
 * the agent changed that line the comment says it was addressed; after a window reload the chat, the changes hunk by
 * hunk and the comment are all back;
 * opened, the editor shows each change with Keep and Undo above it (CodeLens) and the file's actions in its title
 * bar; with the cursor in the first change (the first line), Ctrl+Shift+Enter keeps it, Alt+F5 goes to the next, Ctrl+Shift+Backspace undoes it: on disk the kept change stays and the other
 * is gone, and the chat's Changes bar no longer lists the file. Screenshots before, in a light theme then a dark one
 * (test-results/ui-review-light.png, ui-review-dark.png: the editor and the chat view beside it).
 *
 * Run after `npm run build`: node test/ui/review.ui.mjs
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { scriptedAgentSettings, setColorTheme } from '../harness/scriptedAgent.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');
const ORIGINAL =
  'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item;\n  return sum;\n}\n\nexport const name = "total";\n';
const EDITED =
  'export function total(items: number[]): number {\n  let sum = 0;\n  for (const item of items) sum += item;\n  return sum;\n}\n\nexport const name = "sum of items";\nexport const version = 2;\n';
/** After the review comment on the name: the agent keeps the old name, and says why. */
const ADDRESSED = EDITED.replace('"sum of items";', '"total"; // other files use this name');
const SCENARIO = {
  turns: [
    {
      match: 'type the function',
      steps: [{ diskWrite: { path: '${cwd}/total.ts', content: EDITED } }, { text: 'Typed it, and renamed it.' }],
    },
    {
      match: 'Please address my review comments',
      steps: [{ diskWrite: { path: '${cwd}/total.ts', content: ADDRESSED } }, { text: 'Kept the old name.' }],
    },
  ],
};
const THEMES = [
  { kind: 'light', name: 'Default Light Modern', file: 'ui-review-light.png' },
  // The theme picker names it without "Default".
  { kind: 'dark', name: 'Dark Modern', file: 'ui-review-dark.png' },
];

async function until(what, check, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The texts of this extension's files in the workspace storage of `userDataDir` (the chat history among them). */
function savedFiles(userDataDir) {
  const root = path.join(userDataDir, 'User', 'workspaceStorage');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true })
    .map((name) => path.join(root, String(name)))
    .filter((file) => file.includes('vscode-acp') && file.endsWith('.json') && fs.statSync(file).isFile())
    .map((file) => fs.readFileSync(file, 'utf8'));
}

/** Go to Line (Ctrl+G) in the active editor. */
async function goToLine(page, line) {
  await page.keyboard.press('Control+KeyG');
  await page.locator('.quick-input-widget .quick-input-box input').waitFor();
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

export async function runReviewUiTest() {
  fs.mkdirSync(RESULTS, { recursive: true });
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ui-review-')));
  const file = path.join(folder, 'total.ts');
  fs.writeFileSync(file, ORIGINAL);
  const wb = await openWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    folder,
    viewport: { width: 1100, height: 700 },
    userSettings: {
      'workbench.colorTheme': THEMES[0].name,
      ...scriptedAgentSettings(JSON.stringify(SCENARIO)),
    },
  });
  const { page } = wb;
  const shots = [];
  try {
    await runCommand(page, 'Focus on Agent Chat View');
    let chat = await webviewFrame(page, 'acp-chat-app');
    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    await box.waitFor({ timeout: 30_000 });
    await box.fill('type the function');
    await box.press('Enter');
    await chat.getByText('Typed it, and renamed it.').waitFor({ timeout: 30_000 });
    await chat.getByText('1 file changed').waitFor({ timeout: 30_000 });

    // Quick Open, as a person opens a file (again if the key went nowhere: the focus was still on its way out of the
    // chat's webview).
    for (let tries = 1; ; tries++) {
      await page.keyboard.press('Control+KeyP');
      const opened = await page
        .locator('.quick-input-widget .quick-input-box input')
        .waitFor({ state: 'visible', timeout: 3000 })
        .then(
          () => true,
          () => false,
        );
      if (opened) break;
      if (tries === 3) throw new Error('Quick Open (Ctrl+P) did not open');
    }
    await page.keyboard.type('total.ts');
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'total.ts' }).first().waitFor();
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-group-container .monaco-editor').first();
    const lenses = editor.locator('.codelens-decoration');
    await until(
      'Keep and Undo above both changes',
      async () => (await lenses.getByText('Keep', { exact: true }).count()) === 2,
    );
    // The editor's title bar: the file's Keep and Undo, its diff, next and previous change.
    for (const label of [
      "Keep the Agent's Changes to This File",
      "Undo the Agent's Changes to This File",
      'Go to Next Agent Change',
    ]) {
      await page.locator(`.editor-actions [aria-label^="${label}"]`).first().waitFor({ timeout: 10_000 });
    }

    // A comment on the renamed line, in VS Code's comments UI, as a person writes one.
    await goToLine(page, 7);
    await runCommand(page, 'Comments: Add Comment on Current Selection');
    const widget = page.locator('.review-widget');
    // Typed once the comment box has the focus (as a person clicks into it), and sent once it shows the text.
    const input = widget.locator('.monaco-editor').first();
    await input.waitFor();
    await input.click();
    await page.keyboard.type('Keep the old name: other files use it.');
    await widget.getByText('Keep the old name: other files use it.').first().waitFor({ timeout: 10_000 });
    await widget.getByRole('button', { name: 'Add Comment' }).click();
    await widget.getByText('Not sent yet').first().waitFor({ timeout: 10_000 });

    for (const theme of THEMES) {
      if (theme !== THEMES[0]) {
        await setColorTheme(page, theme.name, theme.kind === 'dark');
      }
      const shot = path.join(RESULTS, theme.file);
      await page.screenshot({ path: shot });
      shots.push(shot);
    }

    // Send Comments to the Agent: into the chat's next prompt, sent from there.
    await runCommand(page, 'ACP: Send Comments to the Agent');
    await chat.getByText('Comment on total.ts').waitFor({ timeout: 10_000 });
    assert.equal(await box.inputValue(), 'Please address my review comments on your changes.');
    // Not said sent before it is.
    await widget.getByText('In your next prompt to the agent: not sent yet').first().waitFor({ timeout: 10_000 });
    await box.press('Enter');
    await chat.getByText('Kept the old name.').waitFor({ timeout: 30_000 });
    await widget.getByText('Addressed: the agent changed these lines since').first().waitFor({ timeout: 10_000 });
    await until(
      'Keep and Undo again above both changes',
      async () => (await lenses.getByText('Keep', { exact: true }).count()) === 2,
    );

    // A window reload (Developer: Reload Window): the chat comes back with its Changes bar, the editor with the
    // agent's changes hunk by hunk, the comment with what it says. Once the history has it on disk: a reload at the
    // very moment of the write is deactivation's race (historySaver's written()), not what this test looks at.
    await until(
      'the addressed comment in the saved history',
      () => savedFiles(wb.server.userDataDir).some((text) => text.includes('"addressed"')),
      30_000,
    );
    await page.evaluate(() => (window.acpBeforeReload = true));
    await runCommand(page, 'Developer: Reload Window');
    await until('the window reloaded', () => page.evaluate(() => window.acpBeforeReload !== true).catch(() => false));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    chat = await webviewFrame(page, 'acp-chat-app', { timeout: 60_000 });
    await chat.getByText('1 file changed').waitFor({ timeout: 60_000 });
    await until(
      'Keep and Undo above both changes after the reload',
      async () => (await lenses.getByText('Keep', { exact: true }).count()) === 2,
      60_000,
    );
    await widget.getByText('Addressed: the agent changed these lines since').first().waitFor({ timeout: 30_000 });

    // The diff the file's title bar opens: titled by what its sides are, with Keep and Undo of the change at the cursor
    // in its own title bar (CodeLens is off in diff editors), and no second pair of arrows beside VS Code's own.
    await page.locator('.editor-actions [aria-label^="Compare with the Version Before the Agent\'s Changes"]').click();
    await page.locator('.tab.active').filter({ hasText: 'total.ts (before the agent ↔ now)' }).waitFor();
    // The changed line, clicked in the diff's right side (the file now), as a person puts the cursor there.
    await page
      .locator('.monaco-diff-editor .editor.modified .view-line')
      .filter({ hasText: 'other files use this name' })
      .click();
    for (const label of ['Keep Agent Change', 'Undo Agent Change']) {
      await page.locator(`.editor-actions [aria-label^="${label}"]`).first().waitFor({ timeout: 10_000 });
    }
    // One Keep and one Undo in sight, the change's: the file's pair waits in the title's "…" menu, and VS Code's own
    // arrows are the only ones. (Polled: the title bar redraws after the context keys change, not with them.)
    for (const label of [
      'Go to Next Agent Change',
      "Undo the Agent's Changes to This File",
      "Compare with the Version Before the Agent's Changes",
    ]) {
      const shown = page.locator(`.editor-actions [aria-label^="${label}"]`);
      await until(`"${label}" out of the diff's title bar`, async () => (await shown.count()) === 0, 5000);
    }
    const diffShot = path.join(RESULTS, 'ui-review-diff.png');
    await page.screenshot({ path: diffShot });
    shots.push(diffShot);
    await runCommand(page, 'View: Close Editor');

    // By keyboard: the first change, kept; the next one, undone.
    // Each key once the status bar says where the cursor is (VS Code then knows it is in a change, as it does by the
    // time a person looks): first on a line outside the changes, so that what it says next is new.
    const status = page.locator('.statusbar-item').filter({ hasText: /agent change/i });
    await goToLine(page, 3);
    await status.filter({ hasText: '2 agent changes' }).waitFor();
    await page.keyboard.press('Control+Home'); // in the first change (the file's first line)
    await status.filter({ hasText: 'Agent change 1 of 2' }).waitFor();
    await page.keyboard.press('Control+Shift+Enter');
    await until('one change left', async () => (await lenses.getByText('Keep', { exact: true }).count()) === 1);
    await page.keyboard.press('Alt+F5');
    await status.filter({ hasText: 'Agent change 1 of 1' }).waitFor();
    await page.keyboard.press('Control+Shift+Backspace');
    const kept =
      'export function total(items: number[]): number {\n  let sum = 0;\n  for (const item of items) sum += item;\n  return sum;\n}\n\nexport const name = "total";\n';
    await until('the second change undone on disk', () => fs.readFileSync(file, 'utf8') !== ADDRESSED);
    // The kept change stays, the undone one is gone (the save may follow the edit by a moment).
    await until('the file as kept and undone', () => fs.readFileSync(file, 'utf8') === kept, 5000).catch(() => {
      assert.equal(fs.readFileSync(file, 'utf8'), kept, 'the kept change stays, the undone one is gone');
    });
    await until(
      'the Changes bar without the file',
      async () => (await chat.getByRole('button', { name: /Undo All/ }).count()) === 0,
    );
    return shots;
  } catch (error) {
    await page.screenshot({ path: path.join(RESULTS, 'ui-review-failed.png') }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const shots = await runReviewUiTest();
  process.stdout.write(`screenshots: ${shots.join(', ')}\n`);
}
