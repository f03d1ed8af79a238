/**
 * A real agent's subagent (Claude Code's Agent tool, after agent.test.ts, same host): the fake model starts one,
 * answers its own request, and the subagent's text is shown inside the tool call that started it, not among the
 * main agent's answers; the main agent's last answer follows.
 */
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor } from '../shared/chatWaits';
import { fakeLog, realAgentConfig } from './config';
import { connectedRealChat } from './realChat';
import { chatStatus } from '../../../src/views/chatStatus';

const config = realAgentConfig();

describe(`${config.agent.name}: a subagent (real agent, fake model)`, function () {
  this.timeout(180_000);

  it("its steps go inside the tool call that started it, and the main agent's answer follows", async function () {
    const sub = config.scenario.subagent;
    if (!sub) return this.skip();
    const { api, chat } = await connectedRealChat(config);
    try {
      const watch = chat.onDidChange(() => {
        for (const p of chatStatus(chat).permissions) chat.permissions.answer(p.requestId, 'allow_once');
      });
      await chat.composer.send(sub.marker);
      await waitFor(chat, 'the turn to end', () => chat.thread.turn === 'idle', 120_000);
      watch.dispose();
      assert.equal(lastReply(chat), sub.doneText, transcript(chat));
      const started = (await fakeLog(config)).some((r) => r.lastUserText?.includes(sub.prompt));
      assert.ok(started, 'the subagent asked the model');
      const tools = chat.thread.entries.filter((e) => e.kind === 'tool');
      const parent = tools.find((e) => e.kind === 'tool' && e.children?.some((c) => c.kind === 'assistant'));
      assert.ok(parent?.kind === 'tool', `a tool call with the subagent's steps: ${transcript(chat).slice(-1500)}`);
      if (parent?.kind !== 'tool') return;
      const texts = parent.children!.flatMap((c) => (c.kind === 'assistant' ? [c.text] : []));
      assert.ok(texts.includes(sub.text), JSON.stringify(texts));
      // Not among the main agent's answers.
      const answers = chat.thread.entries.flatMap((e) => (e.kind === 'assistant' ? [e.text] : []));
      assert.ok(!answers.includes(sub.text), JSON.stringify(answers));
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
