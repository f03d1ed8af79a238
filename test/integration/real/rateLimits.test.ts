/**
 * A real agent's plan rate limits (Claude Code signed in to a plan, after agent.test.ts, same host): the fake
 * model's answer carries the Messages API's unified rate-limit headers, Claude Code reports them, and the usage meter
 * shows both windows, the one near its limit as a warning.
 */
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor } from '../shared/chatWaits';
import { realAgentConfig } from './config';
import { connectedRealChat } from './realChat';
import { chatStatus } from '../../../src/views/chatStatus';

const config = realAgentConfig();

describe(`${config.agent.name}: plan rate limits (real agent, fake model)`, function () {
  this.timeout(180_000);

  it('both windows the agent reports reach the usage meter, the one near its limit as a warning', async function () {
    const limits = config.scenario.rateLimits;
    if (!limits) return this.skip();
    const signedIn = { ...config, agent: { ...config.agent, env: { ...config.agent.env, ...limits.env } } };
    const { api, chat } = await connectedRealChat(signedIn);
    try {
      await chat.composer.send(limits.marker);
      assert.equal(lastReply(chat), limits.text, transcript(chat));
      await waitFor(chat, 'the rate limits', () => (chatStatus(chat).controls.usage?.limits?.length ?? 0) >= 2, 30_000);
      const shown = chatStatus(chat).controls.usage!.limits!.map((l) => [l.kind, l.status, l.utilization]);
      assert.deepEqual(shown, [
        ['five_hour', 'warning', limits.fiveHour],
        ['seven_day', 'allowed', limits.sevenDay],
      ]);
      const five = chatStatus(chat).controls.usage!.limits![0]!;
      assert.ok(five.resetsAt && five.resetsAt > Date.now(), 'the reset time is in the future, in milliseconds');
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
