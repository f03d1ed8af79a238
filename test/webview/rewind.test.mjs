/**
 * Copy on any message; a prompt's Edit (in place), Retry (the newest prompt) and Branch from here:
 * offered while no turn runs, by keyboard and pointer, one line at 300 px;
 * Edit's box sends with Enter and leaves with Escape.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage, runningStatus } from './harness.mjs';

const entries = [
  { kind: 'user', id: 'u1', text: 'first prompt' },
  { kind: 'assistant', id: 'a1', text: 'first answer' },
  { kind: 'user', id: 'u2', text: 'second prompt', attachments: [{ label: 'a.ts', icon: 'file' }] },
  { kind: 'assistant', id: 'a2', text: 'second answer' },
];

describe("a prompt's Edit, Retry and Branch", function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'light', width: 300, height: 500 });
    await chat.apply({ type: 'status', status: runningStatus({ turn: 'idle', checkpoints: ['u2'] }) });
    await chat.setEntries(entries);
    await chat.page.locator('acp-chat-entry').nth(3).waitFor();
  });
  after(() => chat?.close());
  beforeEach(() => chat.clearPosted());

  const prompt = (i) => chat.page.locator('acp-chat-entry').nth(i);

  it('offers Edit and Branch on every prompt and Retry on the newest, on one line at 300 px', async () => {
    const first = prompt(0);
    await first.hover();
    assert.equal(await first.getByRole('button', { name: 'Edit and send again' }).count(), 1);
    assert.equal(await first.getByRole('button', { name: 'Branch from here (a new chat)' }).count(), 1);
    assert.equal(await first.getByRole('button', { name: 'Retry' }).count(), 0, 'only the newest prompt');
    const second = prompt(2);
    await second.hover();
    assert.equal(await second.getByRole('button', { name: 'Retry' }).count(), 1);
    const role = await second
      .locator('.role')
      .evaluate((r) => ({ h: r.getBoundingClientRect().height, w: r.scrollWidth, c: r.clientWidth }));
    assert.ok(role.h <= 22 && role.w <= role.c, `one line, nothing cut (${JSON.stringify(role)})`);
    assert.deepEqual(await axeViolations(chat.page), []);
    await second.getByRole('button', { name: 'Retry' }).click();
    await first.getByRole('button', { name: 'Branch from here (a new chat)' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'retryPrompt', chatId: 'c1' },
      { type: 'branch', chatId: 'c1', entryId: 'u1' },
    ]);
  });

  it('Copy on a prompt and on an answer asks the host for the whole message', async () => {
    await prompt(0).hover();
    await prompt(0).getByRole('button', { name: 'Copy' }).click();
    await prompt(1).hover();
    await prompt(1).getByRole('button', { name: 'Copy' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'copyEntry', chatId: 'c1', entryId: 'u1' },
      { type: 'copyEntry', chatId: 'c1', entryId: 'a1' },
    ]);
  });

  it('Edit puts the text in a box in place: Enter sends it, the note says what sending does', async () => {
    const second = prompt(2);
    await second.hover();
    await second.getByRole('button', { name: 'Edit and send again' }).click();
    const box = second.getByRole('textbox', { name: 'Edit the prompt' });
    await box.waitFor();
    assert.equal(await box.inputValue(), 'second prompt');
    assert.equal(await box.evaluate((b) => b.getRootNode().activeElement === b), true, 'the caret is in it');
    assert.match(
      await second.locator('.edit-note').innerText(),
      /what follows stays in the history.*the files the agent changed from this prompt on go back first.*attachments are not sent again/,
    );
    await box.press('End');
    await box.pressSequentially(', better');
    await box.press('Enter');
    assert.deepEqual(await chat.posted(), [
      { type: 'resend', chatId: 'c1', entryId: 'u2', text: 'second prompt, better' },
    ]);
    await box.waitFor({ state: 'detached' });
  });

  it('Escape leaves the prompt as it was, and sends nothing', async () => {
    const first = prompt(0);
    await first.hover();
    await first.getByRole('button', { name: 'Edit and send again' }).click();
    const box = first.getByRole('textbox', { name: 'Edit the prompt' });
    await box.fill('changed my mind');
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    assert.equal(await first.locator('.plain').innerText(), 'first prompt');
    assert.deepEqual(await chat.posted(), []);
  });

  it('offers none of them while a turn runs, and closes an open edit when one starts', async () => {
    const first = prompt(0);
    await first.hover();
    await first.getByRole('button', { name: 'Edit and send again' }).click();
    await first.getByRole('textbox', { name: 'Edit the prompt' }).waitFor();
    await chat.apply({ type: 'status', status: runningStatus({ checkpoints: ['u2'] }) });
    await first.getByRole('textbox', { name: 'Edit the prompt' }).waitFor({ state: 'detached' });
    await first.hover();
    for (const name of ['Edit and send again', 'Retry', 'Branch from here (a new chat)']) {
      assert.equal(await chat.page.getByRole('button', { name }).count(), 0, name);
    }
  });
});
