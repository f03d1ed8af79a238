/**
 * Prompts sent while a turn runs (no VS Code, the scripted agent): queued, and
 * sent in order, each as its own turn, as the turns before them finish; Stop
 * keeps them; Send now stops the turn and sends one first; Move up reorders; Edit hands one back
 * to the prompt box; Remove drops it.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import { scriptedHost, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

const queuedTexts = (chat: Chat) => chatStatus(chat).queued.map((q) => q.text);
const idOf = (chat: Chat, text: string) => chatStatus(chat).queued.find((q) => q.text === text)!.id;
/** The agent's own list of the prompts it was sent, from its newest answer. */
const agentSaw = (chat: Chat) =>
  chat.thread.entries
    .filter((e) => e.kind === 'assistant')
    .at(-1)
    ?.text.replace(/^\[history of [^:]+: |\]$/g, '');

describe('prompts sent while a turn runs (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let chat: Chat;
  beforeEach(async () => {
    host = scriptedHost({
      turns: [
        { match: 'long', steps: [{ text: 'Working on it.' }, { waitForCancel: true }] },
        { match: 'slow', steps: [{ text: 'Working.' }, { sleep: 300 }, { reportHistory: true }] },
        { match: '', steps: [{ reportHistory: true }] },
      ],
    });
    chat = await host.connectedChat();
  });
  afterEach(() => host.dispose());

  /** Sends `prompt` and resolves once the agent is answering it. */
  async function answering(prompt: string): Promise<void> {
    void chat.composer.send(prompt);
    await until('the turn to run', () => chatStatus(chat).turn === 'running');
  }

  it('are queued, and sent in order, each as its own turn, as the turns before them finish', async () => {
    await answering('slow first');
    await chat.composer.send('second');
    await chat.composer.send('third');
    await chat.composer.send('fourth');
    assert.deepEqual(queuedTexts(chat), ['second', 'third', 'fourth']);
    await until(
      'the queue to be sent',
      () => chatStatus(chat).queued.length === 0 && chatStatus(chat).turn === 'idle',
      10_000,
    );
    assert.equal(agentSaw(chat), 'slow first | second | third | fourth');
    assert.deepEqual(
      chat.thread.entries.filter((e) => e.kind === 'user').map((e) => e.text),
      ['slow first', 'second', 'third', 'fourth'],
    );
  });

  it('stay queued after Stop; Send now sends one', async () => {
    await answering('long one');
    await chat.composer.send('kept');
    chat.stop();
    await until('the turn to end', () => chatStatus(chat).turn === 'idle');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(queuedTexts(chat), ['kept'], 'nothing was sent after Stop');
    await chat.composer.queued('sendNow', idOf(chat, 'kept'));
    await until('its answer', () => agentSaw(chat) === 'long one | kept');
    assert.deepEqual(queuedTexts(chat), []);
  });

  it('Send now stops the running turn and sends that prompt first; the rest follow in order', async () => {
    await answering('long one');
    await chat.composer.send('later');
    await chat.composer.send('now');
    await chat.composer.queued('sendNow', idOf(chat, 'now'));
    await until(
      'both sent',
      () => chatStatus(chat).queued.length === 0 && agentSaw(chat)?.endsWith('later') === true,
      10_000,
    );
    assert.equal(agentSaw(chat), 'long one | now | later');
  });

  it('wait after the agent crashed; Send now then connects again and sends it', async () => {
    await answering('long one');
    await chat.composer.send('after the crash');
    host.instances[0]!.crash('gone');
    await until(
      'the turn to end',
      () => chatStatus(chat).turn === 'idle' && chatStatus(chat).connection !== 'connected',
    );
    assert.deepEqual(queuedTexts(chat), ['after the crash'], 'kept');
    await chat.composer.queued('sendNow', idOf(chat, 'after the crash'));
    await until('its answer', () => agentSaw(chat) === 'after the crash', 10_000);
    assert.deepEqual(queuedTexts(chat), []);
  });

  it('Move up changes the order they are sent in', async () => {
    await answering('slow first');
    await chat.composer.send('b');
    await chat.composer.send('c');
    await chat.composer.queued('up', idOf(chat, 'c'));
    assert.deepEqual(queuedTexts(chat), ['c', 'b']);
    await chat.composer.queued('up', idOf(chat, 'c'));
    assert.deepEqual(queuedTexts(chat), ['c', 'b'], 'the first stays first');
    await until(
      'the queue to be sent',
      () => chatStatus(chat).queued.length === 0 && chatStatus(chat).turn === 'idle',
      10_000,
    );
    assert.equal(agentSaw(chat), 'slow first | c | b');
  });

  it('Edit hands a queued prompt back to the prompt box; Remove drops it', async () => {
    await answering('long one');
    await chat.composer.send('to edit');
    await chat.composer.send('to drop');
    await chat.composer.queued('edit', idOf(chat, 'to edit'));
    assert.equal(chatStatus(chat).returnedDraft?.text, 'to edit');
    await chat.composer.queued('remove', idOf(chat, 'to drop'));
    assert.deepEqual(queuedTexts(chat), []);
    chat.stop();
    await until('the turn to end', () => chatStatus(chat).turn === 'idle');
  });
});
