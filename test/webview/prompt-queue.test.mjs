/**
 * Prompts sent while the agent answers: Enter still sends (the host queues),
 * the box says so, and the queue is shown in order with Send now, Move up,
 * Edit and Remove, one line each at 300 px; Steer where the agent takes a
 * message into its answer, and a steered message marked in the transcript.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { entryTexts, squash } from './dom.mjs';
import { openChatPage, runningStatus } from './harness.mjs';

const status = runningStatus;

describe('prompts queued while the agent answers', function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'light', width: 300, height: 500 });
  });
  after(() => chat?.close());
  beforeEach(() => chat.clearPosted());

  it('Enter during a turn sends the prompt to the host, which queues it; the box says it will', async () => {
    await chat.apply({ type: 'status', status: status() });
    const box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    assert.equal(await box.getAttribute('placeholder'), 'Queue a follow-up…');
    await box.fill('and then the tests');
    await box.press('Enter');
    assert.deepEqual(await chat.posted(), [{ type: 'prompt', chatId: 'c1', text: 'and then the tests' }]);
    assert.equal(await box.inputValue(), '');
    assert.equal(await chat.page.getByRole('button', { name: 'Stop' }).count(), 1, 'Stop stays');
  });

  it('shows the queue in order, one line each, with Send now, Move up, Edit and Remove', async () => {
    const queued = [
      { id: 1, text: 'first line\nsecond line', attachments: 0 },
      { id: 2, text: `a long one ${'word '.repeat(80)}`, attachments: 2 },
    ];
    await chat.apply({ type: 'status', status: status({ queued }) });
    const queue = chat.page.getByRole('region', { name: 'Queued prompts' });
    await queue.waitFor();
    assert.match(await queue.innerText(), /^2 queued: sent in order when the agent is done/);
    const rows = queue.getByRole('listitem');
    assert.equal(await rows.count(), 2);
    assert.equal(await rows.nth(0).locator('.text').innerText(), 'first line');
    for (const i of [0, 1]) {
      const box = await rows.nth(i).evaluate((r) => r.getBoundingClientRect().toJSON());
      assert.ok(box.height <= 26 && box.right <= 300, `row ${i} is one line inside the view (${JSON.stringify(box)})`);
    }
    assert.deepEqual(await axeViolations(chat.page), []);
    await queue.getByRole('button', { name: 'Send now (stops the current answer): a long one', exact: false }).click();
    assert.equal(
      await queue.getByRole('button', { name: /^Move up: first line/ }).count(),
      0,
      'the first cannot move up',
    );
    await queue.getByRole('button', { name: /^Move up: a long one/ }).click();
    await queue.getByRole('button', { name: 'Edit: first line' }).click();
    await queue.getByRole('button', { name: 'Remove: first line' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'queued', chatId: 'c1', action: 'sendNow', id: 2 },
      { type: 'queued', chatId: 'c1', action: 'up', id: 2 },
      { type: 'queued', chatId: 'c1', action: 'edit', id: 1 },
      { type: 'queued', chatId: 'c1', action: 'remove', id: 1 },
    ]);
    await chat.apply({ type: 'status', status: status({ turn: 'idle' }) });
    await queue.waitFor({ state: 'detached' });
  });

  it('offers Steer where the agent takes it; one on its way is marked, without buttons', async () => {
    const queued = [
      { id: 1, text: 'on its way', attachments: 0, steering: true },
      { id: 2, text: 'change course', attachments: 0 },
    ];
    await chat.apply({ type: 'status', status: status({ queued }) });
    const queue = chat.page.getByRole('region', { name: 'Queued prompts' });
    await queue.waitFor();
    assert.equal(
      await queue.getByRole('button', { name: /^Steer/ }).count(),
      0,
      'not offered: the agent does not steer',
    );
    await chat.apply({ type: 'status', status: status({ queued, steers: true }) });
    const rows = queue.getByRole('listitem');
    await rows.nth(1).getByRole('button', { name: 'Steer (into the current answer): change course' }).waitFor();
    assert.equal(await rows.nth(0).getByRole('button').count(), 0, 'nothing to do with one on its way');
    assert.match(await rows.nth(0).innerText(), /on its way\s+Steering…/);
    for (const i of [0, 1]) {
      const box = await rows.nth(i).evaluate((r) => r.getBoundingClientRect().toJSON());
      assert.ok(box.height <= 26 && box.right <= 300, `row ${i} is one line inside the view (${JSON.stringify(box)})`);
    }
    await rows
      .nth(1)
      .getByRole('button', { name: /^Steer/ })
      .click();
    assert.deepEqual(await chat.posted(), [{ type: 'queued', chatId: 'c1', action: 'steer', id: 2 }]);
    assert.deepEqual(await axeViolations(chat.page), []);
  });

  it("shows a steered message in the transcript as the user's, marked as gone into the answer", async () => {
    await chat.apply({ type: 'status', status: status({ queued: [] }) });
    await chat.setEntries([
      { kind: 'user', id: 'u1', text: 'do the thing' },
      { kind: 'assistant', id: 'a1', text: 'Working on it.' },
      { kind: 'user', id: 'u2', text: 'use tabs', steered: true },
      { kind: 'assistant', id: 'a2', text: 'Tabs it is.' },
    ]);
    await chat.page.locator('acp-chat-entry').nth(3).waitFor();
    const texts = (await entryTexts(chat.page)).map(squash);
    assert.equal(texts[2], 'You into the answer use tabs');
    assert.equal(texts[0], 'You do the thing');
  });
});
