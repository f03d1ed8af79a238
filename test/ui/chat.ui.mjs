/**
 * UI test: drives the real workbench (code-server, Node extension host) in
 * Chromium like a person: open the chat view, pick the agent, connect, type a
 * prompt, see the reply in the webview. Saves a screenshot. The agent writes a file: the
 * Changes bar lists it and a click opens VS Code's diff editor (test-results/ui-changes.png).
 * Then reloads the window and opens the saved chat with ACP: Load Session: its transcript
 * is back, and so is its Changes bar, whose Undo removes the file. Last,
 * selects a line in an editor and presses the Add Selection keybinding: the
 * chat gets a `README.md:L1-L1` chip, the caret is in its composer, and the
 * agent receives the line.
 *
 * Run after `npm run build`: node test/ui/chat.ui.mjs
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { filesUnder } from '../harness/canaries.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');

/** Waits until the caret is in the chat's prompt box (and the page has focus). */
function caretInComposer(frame) {
  return frame.waitForFunction(
    () =>
      document.hasFocus() &&
      document.querySelector('acp-chat-app')?.shadowRoot?.querySelector('acp-chat-composer')?.shadowRoot?.activeElement
        ?.localName === 'textarea',
    undefined,
    { timeout: 10_000 },
  );
}

export async function runChatUiTest() {
  fs.mkdirSync(RESULTS, { recursive: true });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ui-'));
  fs.writeFileSync(path.join(folder, 'README.md'), '# A workspace for the UI test\n');
  const wb = await openWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    folder,
    userSettings: {
      'vscode-acp.agents': {
        test: {
          name: 'Test Agent',
          command: process.execPath,
          args: [path.join(REPO_ROOT, 'dist/test/agent.js'), path.join(REPO_ROOT, 'test/integration/scenario.json')],
        },
        missing: { name: 'Missing Agent', command: 'no-such-agent-command' },
        other: {
          name: 'Other Agent',
          command: process.execPath,
          args: [path.join(REPO_ROOT, 'dist/test/agent.js'), path.join(REPO_ROOT, 'test/integration/scenario.json')],
        },
      },
      'vscode-acp.defaultAgent': 'test',
    },
  });
  const { page } = wb;
  try {
    // The chat view's keybinding (VS Code's own Focus on Agent Chat View command); pressed again until the
    // extension's keybindings are read (they are, like its commands, once its host has scanned it).
    const view = page.locator('.part.auxiliarybar').getByText('Agent Chat', { exact: true }).first();
    for (let i = 0; i < 15 && !(await view.isVisible()); i++) {
      await page.keyboard.press('Control+Alt+Shift+KeyA');
      await view.waitFor({ timeout: 2_000 }).catch(() => {});
    }
    const chat = await webviewFrame(page, 'acp-chat-app');
    // The view container is contributed to the Secondary Side Bar (webview
    // iframes float above the workbench, so look for the container's tab).
    await page.locator('.part.auxiliarybar').getByText('ACP', { exact: true }).first().waitFor({ timeout: 10_000 });

    const picker = chat.locator('acp-composer-toolbar select[aria-label="Agent"]');
    await picker.locator('option[value="test"]').waitFor({ state: 'attached', timeout: 20_000 });
    // The agents that can start first; those not found (and the built-ins not installed) apart, under one heading.
    const usable = await picker.locator(':scope > option').allTextContents();
    assert.deepEqual(usable.slice(0, 2).sort(), ['Other Agent', 'Test Agent']);
    const notInstalled = await picker.locator('optgroup[label="Not installed"] option').allTextContents();
    assert.ok(notInstalled.includes('Missing Agent'), `"Missing Agent" is under Not installed (${notInstalled})`);
    assert.ok(!notInstalled.includes('Test Agent'));
    await picker.selectOption('test');
    await chat.getByRole('button', { name: 'Connect' }).click();
    await chat.getByText('Test Agent 1.2.3').waitFor({ timeout: 20_000 });

    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    await box.click();
    await box.type('Say hello');
    await page.keyboard.press('Shift+Enter');
    await box.type('please');
    assert.equal(await box.inputValue(), 'Say hello\nplease', 'Shift+Enter adds a line');
    await page.keyboard.press('Enter');
    await chat.locator('acp-chat-entry').getByText('Hello from the test agent').waitFor({ timeout: 20_000 });
    assert.equal(await box.inputValue(), '', 'Enter sent the prompt and cleared the box');
    await chat.locator('acp-chat-entry').getByText('Say hello').first().waitFor();
    // Thoughts are collapsed.
    const thinking = chat.locator('details.thought');
    assert.equal(await thinking.evaluate((d) => d.open), false);

    const shot = path.join(RESULTS, 'ui-chat.png');
    await page.screenshot({ path: shot });

    // The Changes bar: the agent writes a file; the bar lists it; a click opens VS Code's diff editor.
    await box.type('write new file');
    await page.keyboard.press('Enter');
    const bar = chat.getByRole('region', { name: 'Files the agent changed' });
    await bar.getByText('created.txt').waitFor({ timeout: 20_000 });
    await bar.getByRole('button', { name: "created.txt, created: compare before the agent's change with now" }).click();
    await page
      .locator('.tabs-container .tab')
      .filter({ hasText: 'created.txt (created by the agent)' })
      .waitFor({ timeout: 15_000 });
    await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(RESULTS, 'ui-changes.png') });

    // The chat was saved when its turn ended: after a window reload, ACP: Load Session opens it at once.
    // Its changes are saved just after (once a pass over the workspace has said what the turn changed).
    // (The saved file itself, not the temporary one a save writes first and then renames over it.)
    const savedChanges = () =>
      filesUnder([wb.server.tmpDir]).some(
        (f) =>
          /\/sessions\/s[^/]*\.json$/.test(f) &&
          /"changes":\{"bar":\[\{"path":"[^"]*created\.txt"/.test(fs.readFileSync(f, 'utf8')),
      );
    for (let i = 0; i < 100 && !savedChanges(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(savedChanges(), 'the chat is saved with its Changes bar');
    // Something typed and not sent: it comes back with the chat.
    await box.fill('not sent before the reload');
    await new Promise((r) => setTimeout(r, 1_000));
    await page.reload();
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    const reloadedAt = Date.now();
    // The chat open before the reload is back, with its transcript and its draft, before any agent is asked.
    const back = await webviewFrame(page, 'acp-chat-app');
    await back.locator('acp-chat-entry').getByText('Hello from the test agent').waitFor({ timeout: 20_000 });
    console.log(`  open chat back ${Date.now() - reloadedAt} ms after the workbench showed, after a window reload`);
    assert.equal(
      await back.getByRole('combobox', { name: 'Message the agent' }).inputValue(),
      'not sent before the reload',
      'the draft came back with its chat',
    );
    assert.equal(
      (await back.locator('acp-chat-header [role="status"]').textContent()).trim().startsWith('Not connected'),
      true,
      'reopened without connecting',
    );
    await back.getByRole('combobox', { name: 'Message the agent' }).fill('');
    // ACP: Load Session on the chat that is open shows it (its saved copy is the same session).
    await runCommand(page, 'ACP: Load Session');
    const pick = page.locator('.quick-input-widget');
    await pick
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: 'Say hello please' })
      .first()
      .waitFor({ timeout: 15_000 });
    const picked = Date.now();
    await page.keyboard.press('Enter');
    const reloaded = await webviewFrame(page, 'acp-chat-app');
    await reloaded.locator('acp-chat-entry').getByText('Hello from the test agent').waitFor({ timeout: 15_000 });
    console.log(`  saved chat shown ${Date.now() - picked} ms after it was picked`);
    assert.equal(
      (await reloaded.locator('acp-chat-header [role="status"]').textContent()).trim().startsWith('Not connected'),
      true,
      'shown before any agent is asked',
    );
    // The Changes bar came back with the saved chat: Undo there removes the file the agent created.
    // Looked up again: the view's page may have been made anew since (a frame found before is then detached).
    const withBar = await webviewFrame(page, 'acp-chat-app >> acp-changes-bar');
    await withBar.getByRole('button', { name: 'Undo created.txt' }).click({ timeout: 15_000 });
    for (let i = 0; i < 100 && fs.existsSync(path.join(folder, 'created.txt')); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(
      fs.existsSync(path.join(folder, 'created.txt')),
      false,
      'Undo after a window reload removed the created file',
    );

    // The paperclip: a quick pick over the workspace's files, searched as Go to File is; the caret goes back to the box.
    await reloaded.getByRole('button', { name: 'Attach files' }).click();
    const attachPick = page.locator('.quick-input-widget');
    await attachPick.getByText('Attach to the prompt').waitFor({ timeout: 10_000 });
    await attachPick.locator('.quick-input-box input').fill('readme');
    await attachPick
      .locator('.quick-input-list .monaco-list-row.focused')
      .filter({ hasText: 'README.md' })
      .waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const chipOfPick = reloaded.getByRole('list', { name: 'Attachments' }).getByText('README.md', { exact: true });
    await chipOfPick.waitFor({ timeout: 10_000 });
    await caretInComposer(reloaded);
    await reloaded.getByRole('button', { name: 'Remove README.md' }).click();
    await chipOfPick.waitFor({ state: 'detached', timeout: 10_000 });

    // ACP: Add Selection to Chat, by its keybinding, from an editor.
    await runCommand(page, 'Go to File...');
    await page.keyboard.type('README.md');
    await page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: 'README.md' })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor textarea').first();
    await editor.waitFor({ state: 'attached', timeout: 10_000 });
    await page.locator('.editor-instance .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Control+Alt+Shift+KeyI');
    const chip = reloaded.getByRole('list', { name: 'Attachments' }).getByText('README.md:L1-L1');
    await chip.waitFor({ timeout: 10_000 });
    await caretInComposer(reloaded);
    // The caret is in the composer: typing goes there, and Enter sends the line with it.
    await page.keyboard.type('report prompt');
    const composer = reloaded.getByRole('combobox', { name: 'Message the agent' });
    assert.equal(await composer.inputValue(), 'report prompt', 'the keybinding put the caret in the composer');
    await page.keyboard.press('Enter');
    // The test agent's report of the blocks it got: the line, embedded with its place.
    await reloaded
      .locator('acp-chat-entry')
      .getByText(/README\.md#L1-L1.*"text":\s*"# A workspace for the UI test"/)
      .waitFor({ timeout: 20_000 });
    await reloaded.getByRole('list', { name: 'Attached' }).getByText('README.md:L1-L1').waitFor();

    // Another agent picked in this chat: a new chat for it, saying so; the conversation stays in its own chat.
    const toolbarAgent = reloaded.locator('acp-composer-toolbar select[aria-label="Agent"]');
    await toolbarAgent.selectOption('other');
    await reloaded
      .getByText('A new chat with Other Agent: it has not seen your chat with Test Agent')
      .waitFor({ timeout: 10_000 });
    const chatList = reloaded.getByRole('combobox', { name: 'Chat', exact: true });
    assert.equal(await chatList.locator('option').count(), 2, 'both chats are open');
    const shownList = reloaded.locator('acp-message-list:not(.kept)');
    assert.equal(await shownList.getByText('Hello from the test agent').count(), 0, 'not in the new chat');
    // Ctrl+L in the chat view: New Chat.
    await reloaded.getByRole('combobox', { name: 'Message the agent' }).focus();
    await page.keyboard.press('Control+KeyL');
    await reloaded.waitForFunction(
      () =>
        document
          .querySelector('acp-chat-app')
          ?.shadowRoot?.querySelector('acp-chat-header')
          ?.shadowRoot?.querySelector('acp-chat-list')
          ?.shadowRoot?.querySelectorAll('option').length === 3,
      undefined,
      { timeout: 10_000 },
    );

    // The new chat's empty state says the next thing to do, for its agent.
    await reloaded
      .locator('acp-message-list:not(.kept)')
      .getByText('Ask Other Agent something: sending connects it.')
      .waitFor({ timeout: 10_000 });

    // An agent whose command is not found: said in the header, with Open Settings instead of a Connect that would
    // only fail again; the button opens the Settings editor at vscode-acp.agents.
    await toolbarAgent.selectOption('missing');
    await reloaded.locator('acp-chat-header [role="status"]').getByText('Missing Agent was not found').waitFor();
    assert.equal(await reloaded.getByRole('button', { name: 'Connect' }).count(), 0, 'no Connect for it');
    await reloaded.getByRole('button', { name: 'Open Settings' }).click();
    // The Settings editor, showing the setting (its title is VS Code's rendering of the key).
    await page
      .locator('.settings-editor .setting-item-title')
      .filter({ hasText: /Agents$/ })
      .first()
      .waitFor({ timeout: 15_000 });
    return shot;
  } finally {
    await wb.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runChatUiTest().then(
    (shot) => console.log(`UI test passed; screenshot: ${shot}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
