/**
 * Node host: an agent that asks for 1,000 permissions at once. The chat holds
 * at most MAX_PENDING_PERMISSIONS (32) waiting for the user, answers the
 * others `cancelled` at once, says so, and goes on.
 */
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

suite('an agent that floods permission requests', function () {
  this.timeout(30_000);
  let chat: Chat;

  suiteSetup(async () => {
    const scenario = { turns: [{ match: '', steps: [{ permissionFlood: { count: 1000 } }] }] };
    chat = await chatWithAgents({ flood: scenarioAgent('Flooding Agent', scenario) }, 'flood');
  });

  test('never more than 32 wait for the user, the others are answered cancelled at once, and the turn ends', async () => {
    let most = 0;
    const watch = chat.onDidChange(() => (most = Math.max(most, chat.status.permissions.length)));
    void chat.send('ask for everything');
    await waitFor(chat, '32 prompts', () => chat.status.permissions.length === 32);
    await waitFor(chat, 'the refusal notice', () =>
      /more than 32 permissions at once: the rest were answered "cancelled"/.test(transcript(chat)),
    );
    // Answer what waits until the agent has its 1,000 answers (room frees as we answer, so more may wait meanwhile).
    while (chat.status.turn === 'running') {
      for (const prompt of chat.status.permissions) chat.permissions.answer(prompt.requestId, 'reject');
      await new Promise((r) => setTimeout(r, 20));
    }
    watch.dispose();
    assert.equal(most, 32, 'at most 32 waited at once');
    const [, cancelled, rejected] = /^\[permissions: (\d+) cancelled, (\d+) reject_once\]$/.exec(lastReply(chat)) ?? [];
    assert.equal(Number(cancelled) + Number(rejected), 1000, lastReply(chat));
    assert.ok(Number(cancelled) > 0 && Number(rejected) >= 32, lastReply(chat));
    assert.equal(chat.status.permissions.length, 0);
  });
});
