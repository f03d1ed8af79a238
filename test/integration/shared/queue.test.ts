/**
 * Both hosts: prompts sent while the agent answers wait in the queue and are
 * sent in order, each as its own turn, once the answer before them ends.
 * (Send now and Steer in the real workbench: test/ui, checkQueue and checkSteer.)
 */
import * as assert from './assert';
import { lastReply, transcript, waitFor } from './chatWaits';
import { newChatWithTestAgent } from './host';
import { chatStatus } from '../../../src/views/chatStatus';

describe('the queue', function () {
  this.timeout(60_000);

  it('three prompts sent during an answer are queued, then sent in order, each as its own turn', async () => {
    const { api, chat } = await newChatWithTestAgent();
    const first = chat.composer.send('take a while');
    await waitFor(chat, 'the answer to start', () => chat.thread.turn === 'running');
    const queued = ['in the queue one', 'in the queue two', 'in the queue three'];
    const sent = queued.map((text) => chat.composer.send(text));
    assert.deepEqual(
      chatStatus(chat).queued.map((q) => q.text),
      queued,
    );
    await first;
    await Promise.all(sent);
    await waitFor(
      chat,
      'the queue to be sent',
      () => chatStatus(chat).queued.length === 0 && chat.thread.turn === 'idle' && lastReply(chat).includes('three]'),
      20_000,
    );
    const prompts = chat.thread.entries.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    assert.deepEqual(prompts, ['take a while', ...queued], transcript(chat));
    // The agent's own record of the session: each prompt its own turn, in that order.
    assert.equal(
      lastReply(chat),
      `[history of ${chat.sessionRef!.sessionId}: ${['take a while', ...queued].join(' | ')}]`,
    );
    assert.equal(chat.thread.entries.filter((e) => e.kind === 'assistant').length, 4, transcript(chat));
    await api.chats.close(chat.id);
  });
});
