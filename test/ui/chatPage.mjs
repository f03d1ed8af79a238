/** The chat's page inside a real workbench (either host): where the caret is, which pages are on screen, and checks both hosts run. */
import * as assert from 'node:assert/strict';
import { runCommand } from '../harness/code-server.mjs';

/** Waits until the caret is in the chat's prompt box (and the page has focus). */
export function caretInComposer(frame) {
  return frame.waitForFunction(
    () =>
      document.hasFocus() &&
      document.querySelector('acp-chat-app')?.shadowRoot?.querySelector('acp-chat-composer')?.shadowRoot?.activeElement
        ?.localName === 'textarea',
    undefined,
    { timeout: 10_000 },
  );
}

/** The chat pages on screen, left to right (an editor's before the Secondary Side Bar's). */
export async function chatFrames(page) {
  const found = [];
  for (const outer of await page.locator('iframe.webview').elementHandles()) {
    const box = await outer.boundingBox();
    const inner = await (await (await outer.contentFrame())?.$('iframe#active-frame'))?.contentFrame();
    if (box && box.width > 0 && inner && (await inner.locator('acp-chat-app').count()) > 0) {
      found.push({ x: box.x, frame: inner });
    }
  }
  return found.sort((a, b) => a.x - b.x).map((f) => f.frame);
}

/**
 * The paperclip: a quick pick over the workspace's files, searched as Go to File is; README.md, found by typing
 * "readme", is attached and the caret goes back to the box. The chip is then removed.
 */
export async function attachReadmeByPaperclip(page, frame) {
  await frame.getByRole('button', { name: 'Attach files' }).click();
  const pick = page.locator('.quick-input-widget');
  await pick.getByText('Attach to the prompt').waitFor({ timeout: 10_000 });
  await pick.locator('.quick-input-box input').fill('readme');
  await pick
    .locator('.quick-input-list .monaco-list-row.focused')
    .filter({ hasText: 'README.md' })
    .waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const chip = frame.getByRole('list', { name: 'Attachments' }).getByText('README.md', { exact: true });
  await chip.waitFor({ timeout: 10_000 });
  await caretInComposer(frame);
  await frame.getByRole('button', { name: 'Remove README.md' }).click();
  await chip.waitFor({ state: 'detached', timeout: 10_000 });
}

/** Issue 30: a prompt sent while the agent answers is queued; Send now stops the answer and sends it. */
export async function checkQueue(chat) {
  const box = chat.getByRole('combobox', { name: 'Message the agent' });
  await box.fill('keep talking');
  await box.press('Enter');
  const entries = chat.locator('acp-message-list:not(.kept) acp-chat-entry');
  await entries.getByText('Part one.').last().waitFor({ timeout: 15_000 });
  assert.equal(await box.getAttribute('placeholder'), 'Queue a follow-up…');
  await box.fill('burst queued');
  await box.press('Enter');
  const queue = chat.getByRole('region', { name: 'Queued prompts' });
  await queue.getByText('burst queued').waitFor({ timeout: 10_000 });
  assert.equal(await box.inputValue(), '', 'the box is free for the next one');
  const answers = entries.getByText('one two three four five');
  const before = await answers.count();
  await queue.getByRole('button', { name: 'Send now (stops the current answer): burst queued' }).click();
  await queue.waitFor({ state: 'detached', timeout: 10_000 });
  await entries.getByText('burst queued').waitFor({ timeout: 15_000 });
  // Its own answer, after the stopped one.
  await answers.nth(before).waitFor({ timeout: 15_000 });
  await chat.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });
}

/** Each entry's text, shadow roots included, in transcript order, its white space squashed. */
function entryTexts(entries) {
  return entries.evaluateAll((all) => {
    const deep = (n) =>
      [...(n.shadowRoot?.childNodes ?? []), ...n.childNodes]
        .map((c) => (c.nodeType === 3 ? c.data : deep(c)))
        .join(' ');
    return all.map((e) => deep(e).replace(/\s+/g, ' ').trim());
  });
}

/**
 * Steer, in the chat frame `chat` (the scripted agent of test/integration/scenario.json advertises steering): a
 * message queued during a turn that waits for one is steered into it; the transcript shows it where it went in, the
 * agent's answer to it after it, and the turn then ends on its own.
 */
export async function checkSteer(chat) {
  const box = chat.getByRole('combobox', { name: 'Message the agent' });
  await box.fill('steer me');
  await box.press('Enter');
  const entries = chat.locator('acp-message-list:not(.kept) acp-chat-entry');
  await entries.getByText('Waiting for a steer.').last().waitFor({ timeout: 15_000 });
  await box.fill('go left');
  await box.press('Enter');
  const queue = chat.getByRole('region', { name: 'Queued prompts' });
  await queue.getByRole('button', { name: 'Steer (into the current answer): go left' }).click();
  await queue.waitFor({ state: 'detached', timeout: 10_000 });
  await entries.getByText('Steered, done.').last().waitFor({ timeout: 15_000 });
  const texts = await entryTexts(entries);
  const at = texts.findLastIndex((t) => t.includes('Waiting for a steer.'));
  assert.deepEqual(texts.slice(at + 1, at + 3), [
    'You into the answer go left',
    'Agent [steered: go left]Steered, done.',
  ]);
  await chat.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });
}

/**
 * Edit and resend, in the chat frame `chat` (the scripted agent of test/integration/scenario.json, which cannot fork):
 * a prompt edited in place and sent with Enter replaces the conversation from there; the agent's new session is given
 * the earlier turns before the edited prompt (its `report prompt` turn says what it got), and the chat says so.
 */
export async function checkEditResend(chat) {
  const box = chat.getByRole('combobox', { name: 'Message the agent' });
  const entries = chat.locator('acp-message-list:not(.kept) acp-chat-entry');
  await box.fill('recall the history');
  await box.press('Enter');
  await entries
    .getByText(/\[history of .*\| recall the history\]/)
    .last()
    .waitFor({ timeout: 15_000 });
  // By its place: once in edit, the entry no longer shows its text.
  const at = await entries.evaluateAll((all) =>
    all.findLastIndex((e) => e.shadowRoot.querySelector('.user .plain')?.textContent === 'recall the history'),
  );
  const prompt = entries.nth(at);
  await prompt.hover();
  await prompt.getByRole('button', { name: 'Edit and send again' }).click();
  const editor = prompt.getByRole('textbox', { name: 'Edit the prompt' });
  await editor.fill('report prompt after the edit');
  await editor.press('Enter');
  // The agent reports the blocks it got: the earlier turns as context, then the edited prompt.
  const report = entries.getByText(/^\[prompt: .*"start":"The conversation so far/).last();
  await report.waitFor({ timeout: 15_000 });
  assert.match(await report.textContent(), /\{"type":"text","text":"report prompt after the edit"\}\]\]$/);
  await entries.getByText('Edited: the conversation goes on from here').last().waitFor();
  await entries
    .getByText(/This agent cannot fork its session at that point/)
    .last()
    .waitFor();
  assert.equal(
    await entries.locator('.plain', { hasText: /^recall the history$/ }).count(),
    0,
    'the prompt as it was is no longer in this chat',
  );
  await chat.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });
}

/**
 * A question from the agent (elicitation), in the chat frame `chat` (the scripted agent of
 * test/integration/scenario.json asks for a version and a checkbox): Send with the required field empty takes the caret
 * there; typed and sent by keyboard, the agent gets the values.
 */
export async function checkElicitation(chat) {
  const box = chat.getByRole('combobox', { name: 'Message the agent' });
  await box.fill('ask me');
  await box.press('Enter');
  const question = chat.getByRole('region', { name: 'Questions from the agent' });
  const version = question.getByRole('textbox', { name: 'Version' });
  await version.waitFor({ timeout: 15_000 });
  await question.getByRole('button', { name: 'Send', exact: true }).click();
  assert.equal(await version.getAttribute('aria-invalid'), 'true');
  assert.equal(await version.evaluate((e) => e.getRootNode().activeElement === e), true, 'the caret is on the problem');
  await chat.page().keyboard.type('1.2.0');
  await chat.page().keyboard.press('Tab');
  await chat.page().keyboard.press('Space');
  await chat.page().keyboard.press('Enter');
  const entries = chat.locator('acp-message-list:not(.kept) acp-chat-entry');
  await entries
    .getByText('[elicitation: {"action":"accept","content":{"version":"1.2.0","notify":false}}]')
    .last()
    .waitFor({ timeout: 15_000 });
  await question.waitFor({ state: 'detached' });
}

/**
 * Rename, in the workbench's own input box: from the chat list's pencil (`fromList`: two chats or more open) or
 * ACP: Rename Chat... from the Command Palette; the chat's name in the list, or the header's title, follows.
 */
export async function checkRename(page, chat, { fromList = false } = {}) {
  const name = fromList ? 'Renamed from the list' : 'Renamed by its command';
  if (fromList) await chat.getByRole('button', { name: 'Rename chat' }).click();
  else await runCommand(page, 'ACP: Rename Chat...');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(name);
  await page.keyboard.press('Enter');
  const header = chat.locator('acp-chat-header');
  if (fromList) {
    await header.locator('option:checked', { hasText: name }).waitFor({ state: 'attached', timeout: 10_000 });
  } else {
    await header.locator('.title', { hasText: name }).waitFor({ timeout: 10_000 });
  }
}
