/**
 * Prompts sent while the agent answers: Enter still sends (the host queues),
 * the box says so, and the queue is shown in order with Send now, Move up,
 * Edit and Remove, one line each at 300 px.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
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
});
