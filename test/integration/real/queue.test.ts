/**
 * The queue with a real agent (after agent.test.ts, same host): a prompt sent
 * while the agent answers waits in the queue and goes to the agent as its own
 * turn once the answer ends (the same code path with every agent; Steer, for
 * the agents that take it, is in agent.test.ts).
 */
import * as assert from '../shared/assert';
import { transcript, waitFor } from '../shared/chatWaits';
import { fakeLog, realAgentConfig } from './config';
import { connectedRealChat } from './realChat';
import { chatStatus } from '../../../src/views/chatStatus';

const config = realAgentConfig();
const QUEUED = 'Say one more thing, please.';

describe(`${config.agent.name}: the queue (real agent, fake model)`, function () {
  this.timeout(180_000);

  it('a prompt sent during an answer waits, then is sent as its own turn', async () => {
    const { api, chat } = await connectedRealChat(config);
    const from = (await fakeLog(config)).length;
    const first = chat.composer.send(config.scenario.reply.prompt);
    await waitFor(chat, 'the answer to start', () => chat.thread.turn === 'running', 60_000);
    const second = chat.composer.send(QUEUED);
    assert.deepEqual(
      chatStatus(chat).queued.map((q) => q.text),
      [QUEUED],
      'queued while the agent answers',
    );
    await Promise.all([first, second]);
    await waitFor(
      chat,
      'the queued turn',
      () =>
        chatStatus(chat).queued.length === 0 &&
        chat.thread.turn === 'idle' &&
        chat.thread.entries.at(-1)?.kind === 'assistant',
      60_000,
    );
    const kinds = chat.thread.entries.filter((e) => e.kind === 'user' || e.kind === 'assistant').map((e) => e.kind);
    assert.deepEqual(kinds, ['user', 'assistant', 'user', 'assistant'], transcript(chat));
    const prompts = chat.thread.entries.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    assert.deepEqual(prompts, [config.scenario.reply.prompt, QUEUED]);
    const asked = (await fakeLog(config)).slice(from).filter((r) => r.lastUserText?.includes(QUEUED));
    assert.ok(asked.length > 0, 'the model was asked the queued prompt');
    await api.chats.close(chat.id);
  });
});
