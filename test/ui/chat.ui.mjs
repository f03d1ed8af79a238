/**
 * UI test: drives the real workbench (code-server, Node extension host) in
 * Chromium like a person: open the chat view by its keybinding, pick the agent
 * (the usable ones first), connect, type a prompt, see the reply in the webview.
 * Saves a screenshot. The Sessions tree lists the installed agents and one
 * "Install more agents…" entry. The agent writes a file: the Changes bar lists
 * it and a click opens VS Code's diff editor (test-results/ui-changes.png).
 * Then reloads the window: the open chat is back with its draft; ACP: Load
 * Session shows it too, with its Changes bar, whose Undo removes the file. The
 * paperclip's quick pick attaches a file; the Add Selection keybinding attaches
 * a line the agent receives. The side view follows turns sent from the chat's
 * editor copy and offers a way to the newest message; a prompt sent while the
 * agent answers is queued, and Send now sends it. Last, another agent
 * picked opens a new chat, Ctrl+L one more, and a missing agent offers Open
 * Settings instead of Connect.
 *
 * Run after `npm run build`: node test/ui/chat.ui.mjs
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { scriptedAgent } from '../harness/scriptedAgent.mjs';
import { filesUnder } from '../harness/canaries.mjs';
import {
  attachReadmeByPaperclip,
  caretInComposer,
  chatFrames,
  checkEditResend,
  checkElicitation,
  checkRename,
  checkQueue,
  checkSteer,
} from './chatPage.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');

/** How far a chat page's transcript is from its newest end, in CSS px. */
const fromEnd = (frame) =>
  frame.locator('acp-message-list:not(.kept) .scroller').evaluate((s) => s.scrollHeight - s.clientHeight - s.scrollTop);

async function atNewestEnd(frame, what) {
  for (let i = 0; i < 100 && (await fromEnd(frame)) > 2; i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok((await fromEnd(frame)) <= 2, `${what} (${await fromEnd(frame)} px from the newest end)`);
}

/**
 * Issue 46: at the Secondary Side Bar's default width (VS Code opens it at about 292 px), a permission request with a
 * 60-line diff keeps Allow once, Always allow and Reject inside the side bar and the window, on top (the diff scrolls
 * in its box instead), and they work.
 */
async function checkPermissionInReach(page, chat, box) {
  const bar = await page.locator('.part.auxiliarybar').boundingBox();
  assert.ok(bar.width >= 280 && bar.width <= 310, `the side bar is at its default width (${bar.width} px)`);
  await box.fill('approve a long edit');
  await box.press('Enter');
  const prompt = chat.locator('acp-permission-prompt');
  await prompt.waitFor({ timeout: 20_000 });
  const view = page.viewportSize();
  for (const name of ['Allow once', 'Always allow', 'Reject']) {
    const button = prompt.getByRole('button', { name, exact: true });
    const b = await button.boundingBox();
    assert.ok(
      b && b.x >= bar.x && b.x + b.width <= bar.x + bar.width && b.y >= bar.y && b.y + b.height <= view.height,
      `${name} is inside the side bar and the window: ${JSON.stringify(b)} in ${JSON.stringify(bar)}`,
    );
  }
  await prompt.getByRole('button', { name: 'Reject', exact: true }).click();
  await chat.locator('acp-chat-entry').getByText('answered').first().waitFor({ timeout: 20_000 });
  assert.equal(await prompt.count(), 0, 'answered, the prompt is gone');
}

/**
 * Issue 29, item 10: the side view follows new turns, also those sent from the same chat open in an editor; scrolled
 * back, it offers a button to the newest message, and a prompt sent from it goes there.
 */
async function checkFollowing(page) {
  const size = page.viewportSize();
  // A short window, so that the transcript scrolls.
  await page.setViewportSize({ width: size.width, height: 560 });
  await runCommand(page, 'ACP: Open Chat in Editor');
  let frames = [];
  for (let i = 0; i < 100 && frames.length < 2; i++) {
    frames = await chatFrames(page);
    if (frames.length < 2) await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(frames.length, 2, 'the chat in an editor beside the side view');
  const [editor, side] = frames;
  await editor.locator('acp-chat-entry').getByText('Hello from the test agent').waitFor({ timeout: 15_000 });
  const scroller = side.locator('acp-message-list:not(.kept) .scroller');
  const entries = side.locator('acp-message-list:not(.kept) acp-chat-entry');
  assert.ok(
    await scroller.evaluate((s) => s.scrollHeight > s.clientHeight + 200),
    'the side view has more transcript than it shows',
  );
  await atNewestEnd(side, 'the side view starts at the newest message');

  // A prompt sent from the editor: the side view shows the answer at its end.
  const editorBox = editor.getByRole('combobox', { name: 'Message the agent' });
  await editorBox.fill('burst from the editor');
  await editorBox.press('Enter');
  await entries.getByText('one two three four five').waitFor({ timeout: 15_000 });
  await atNewestEnd(side, "the side view followed the editor's turn");
  assert.ok(await entries.getByText('one two three four five').last().isVisible(), 'the answer is in view');

  // Scrolled back: a button to the newest message, which goes there.
  const toEnd = side.getByRole('button', { name: 'Go to the newest message' });
  assert.equal(await toEnd.count(), 0, 'no button while at the newest message');
  await scroller.evaluate((s) => s.scrollTo({ top: 0 }));
  await toEnd.click({ timeout: 5_000 });
  await atNewestEnd(side, 'the button went to the newest message');
  await toEnd.waitFor({ state: 'detached', timeout: 5_000 });

  // Scrolled back, a prompt sent from the side view: the view goes to where its answer comes.
  await scroller.evaluate((s) => s.scrollTo({ top: 0 }));
  await toEnd.waitFor({ timeout: 5_000 });
  const sideBox = side.getByRole('combobox', { name: 'Message the agent' });
  await sideBox.fill('burst again');
  await sideBox.press('Enter');
  await entries.getByText('burst again').waitFor({ timeout: 15_000 });
  await entries.getByText('one two three four five').nth(1).waitFor({ timeout: 15_000 });
  await atNewestEnd(side, 'a prompt sent while scrolled back went to the newest message');

  await runCommand(page, 'View: Close All Editors');
  await page.setViewportSize(size);
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
        test: scriptedAgent('Test Agent', path.join(REPO_ROOT, 'test/integration/scenario.json')),
        missing: { name: 'Missing Agent', command: 'no-such-agent-command' },
        other: scriptedAgent('Other Agent', path.join(REPO_ROOT, 'test/integration/scenario.json')),
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

    // The Sessions tree: the agents that can start, then one entry for the rest, which lists them when opened.
    await runCommand(page, 'Focus on Sessions View');
    const sessionsPane = page
      .locator('.part.auxiliarybar .pane')
      .filter({ has: page.locator('.pane-header', { hasText: 'Sessions' }) });
    const more = sessionsPane.locator('.monaco-list-row[aria-level="1"]').filter({ hasText: 'Install more agents…' });
    await more.waitFor({ timeout: 15_000 });
    const roots = await sessionsPane.locator('.monaco-list-row[aria-level="1"] .label-name').allTextContents();
    assert.deepEqual(roots.slice(0, 2).sort(), ['Other Agent', 'Test Agent'], `installed agents first (${roots})`);
    assert.deepEqual(roots.slice(2), ['Install more agents…'], `the rest under one entry (${roots})`);
    await more.click();
    await sessionsPane.locator('.monaco-list-row[aria-level="2"]').first().waitFor({ timeout: 10_000 });
    // The tree is short under the chat: the last of its rows, by keyboard.
    await page.keyboard.press('End');
    await sessionsPane
      .locator('.monaco-list-row[aria-level="2"]')
      .filter({ hasText: 'Missing Agent' })
      .waitFor({ timeout: 10_000 });
    // Closed again, so that the chat has the side bar's height.
    await sessionsPane.locator('.pane-header').click();
    await sessionsPane.locator('.pane-header[aria-expanded="false"]').waitFor({ timeout: 10_000 });

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
    await attachReadmeByPaperclip(page, reloaded);

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

    await checkFollowing(page);
    await checkQueue(reloaded);
    await checkSteer(reloaded);
    await checkEditResend(reloaded);
    await checkElicitation(reloaded);
    await checkPermissionInReach(page, reloaded, reloaded.getByRole('combobox', { name: 'Message the agent' }));

    // Another agent picked in this chat: a new chat for it, saying so; the conversation stays in its own chat. (The
    // picker is there while the chat is not connected: connected, its session's controls take its place.)
    const toolbarAgent = reloaded.locator('acp-composer-toolbar select[aria-label="Agent"]');
    assert.equal(await toolbarAgent.count(), 0, 'no agent picker while connected');
    await reloaded.getByRole('button', { name: 'Disconnect' }).click();
    await toolbarAgent.selectOption('other');
    await reloaded
      .getByText('A new chat with Other Agent: it has not seen your chat with Test Agent')
      .waitFor({ timeout: 10_000 });
    const chatList = reloaded.getByRole('combobox', { name: 'Chat', exact: true });
    assert.equal(await chatList.locator('option').count(), 2, 'both chats are open');
    // Two chats at the default width: the chat list, the connection and Connect are all inside the side bar, the two
    // chats' names told apart in the list.
    const sideBar = await page.locator('.part.auxiliarybar').boundingBox();
    for (const part of [chatList, reloaded.getByRole('button', { name: 'Connect', exact: true })]) {
      const b = await part.boundingBox();
      assert.ok(
        b && b.width >= 16 && b.x >= sideBar.x && b.x + b.width <= sideBar.x + sideBar.width,
        `in the side bar: ${JSON.stringify(b)}`,
      );
    }
    const names = await chatList.locator('option').allTextContents();
    assert.equal(new Set(names).size, 2, `told apart: ${names}`);
    await checkRename(page, reloaded, { fromList: true });
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
