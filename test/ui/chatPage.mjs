/** The chat's page inside a real workbench (either host): where the caret is, which pages are on screen, and checks both hosts run. */
import * as assert from 'node:assert/strict';

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
  await chat.getByRole('button', { name: 'Send' }).waitFor({ timeout: 15_000 });
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
  // Each entry's text, shadow roots included, in transcript order.
  const texts = await entries.evaluateAll((all) => {
    const deep = (n) =>
      [...(n.shadowRoot?.childNodes ?? []), ...n.childNodes]
        .map((c) => (c.nodeType === 3 ? c.data : deep(c)))
        .join(' ');
    return all.map((e) => deep(e).replace(/\s+/g, ' ').trim());
  });
  const at = texts.findLastIndex((t) => t.includes('Waiting for a steer.'));
  assert.deepEqual(texts.slice(at + 1, at + 3), [
    'You into the answer go left',
    'Agent [steered: go left]Steered, done.',
  ]);
  await chat.getByRole('button', { name: 'Send' }).waitFor({ timeout: 15_000 });
}
