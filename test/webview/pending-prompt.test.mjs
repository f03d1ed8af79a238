/**
 * A prompt sent before the agent connected: shown as pending with Cancel;
 * a prompt handed back lands in the composer once; a notice can offer Restart.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const status = (extra = {}) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connecting',
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [] },
  ...extra,
});

describe('a prompt waiting for the connection', function () {
  let chat;
  let box;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  it('is shown as pending, with a Cancel that asks the host to hand it back', async () => {
    await chat.apply({ type: 'status', status: status({ pendingPrompt: 'Fix <b>the</b> bug' }) });
    const pending = chat.page.getByRole('group', { name: 'Prompt waiting to be sent' });
    await pending.waitFor();
    assert.match(await pending.innerText(), /Waiting for the agent to connect[^]*Fix <b>the<\/b> bug/);
    assert.deepEqual(await axeViolations(chat.page), []);
    await pending.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'cancelPending', chatId: 'c1' }]);
    await chat.apply({ type: 'status', status: status() });
    await pending.waitFor({ state: 'detached' });
  });

  it('handed back, it goes into the composer once, before what was typed since', async () => {
    await box.fill('typed since');
    const returned = status({ returnedDraft: { id: 1, text: 'the lost prompt' } });
    await chat.apply({ type: 'status', status: returned });
    await chat.page.waitForFunction(
      () =>
        document
          .querySelector('acp-chat-app')
          .shadowRoot.querySelector('acp-chat-composer')
          .shadowRoot.querySelector('textarea').value !== 'typed since',
    );
    assert.equal(await box.inputValue(), 'the lost prompt\ntyped since');
    assert.deepEqual(await chat.posted(), [{ type: 'draftTaken', chatId: 'c1', id: 1 }]);
    // The host repeats it in every status until it hears back: taken once only.
    await chat.apply({ type: 'status', status: { ...returned, connection: 'failed' } });
    assert.equal(await box.inputValue(), 'the lost prompt\ntyped since');
  });

  it('a notice that offers Restart asks the host to restart', async () => {
    await chat.setEntries([
      { kind: 'notice', id: 'n1', level: 'warning', text: 'The agent did not confirm the stop.', action: 'restart' },
    ]);
    await chat.page.getByRole('button', { name: 'Restart agent' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'restart' }]);
  });

  it('the notice of a trimmed chat opens the entries it moved out', async () => {
    await chat.setEntries([
      {
        kind: 'notice',
        id: 'moved-out',
        level: 'info',
        text: 'The 12 oldest entries of this chat (48.0 MiB) were moved out of memory to a file.',
        action: 'openEarlier',
      },
    ]);
    await chat.page.getByRole('button', { name: 'Open earlier entries' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'openEarlier' }]);
  });

  it("a failed connect's error offers what fixes it: Install, Open Settings or Try again", async () => {
    for (const [action, name] of [
      ['install', 'Install'],
      ['openSettings', 'Open Settings'],
      ['retry', 'Try again'],
    ]) {
      await chat.setEntries([{ kind: 'notice', id: action, level: 'error', text: 'Could not connect.', action }]);
      await chat.clearPosted();
      await chat.page.getByRole('button', { name }).click();
      assert.deepEqual(await chat.posted(), [{ type: action }]);
    }
  });

  it('a prompt the agent refused until the user signs in offers Sign in', async () => {
    await chat.setEntries([
      { kind: 'notice', id: 'sign', level: 'warning', text: 'Sign in, then send the prompt again.', action: 'signIn' },
    ]);
    await chat.page.getByRole('button', { name: 'Sign in' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'signIn' }]);
  });

  it('an Edit or Retry says the conversation goes on, with a way to the version it replaced', async () => {
    await chat.setEntries([
      {
        kind: 'notice',
        id: 'n7',
        level: 'info',
        text: "Edited: the conversation goes on from here. As it was before, it is kept in this workspace's history.",
        action: 'openReplaced',
        replaced: { agentId: 'a', sessionId: 's' },
      },
    ]);
    await chat.clearPosted();
    await chat.page.getByRole('button', { name: 'Open the conversation as it was' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'openReplaced', entryId: 'n7' }]);
  });
});
