/**
 * Rename with a real agent (after agent.test.ts, same host): the chat keeps
 * the user's name whatever the agent does; an agent that stores titles
 * (`session/set_title`: Codex) lists the session under it from then on.
 */
import * as assert from '../shared/assert';
import { transcript, waitFor } from '../shared/chatWaits';
import { realAgentConfig } from './config';
import { agentSessionNodes, connectedRealChat } from './realChat';

const config = realAgentConfig();
const NAME = 'Renamed by the test';

describe(`${config.agent.name}: Rename (real agent, fake model)`, function () {
  this.timeout(180_000);

  it('the chat and its saved entry take the name; an agent that stores titles lists the session under it', async () => {
    const { api, chat } = await connectedRealChat(config);
    await chat.composer.send(config.scenario.reply.prompt);
    await waitFor(chat, 'the answer', () => chat.thread.turn === 'idle', 60_000);
    const sessionId = chat.sessionRef!.sessionId;
    assert.equal(await api.chats.rename(chat, NAME), config.expect.storesTitles ? 'agent' : 'local', transcript(chat));
    assert.equal(chat.title, NAME);
    assert.ok(!/did not store the new title/.test(transcript(chat)), transcript(chat));
    const saved = async () => (await api.sessions.list()).find((s) => s.sessionId === sessionId)?.title;
    for (let i = 0; i < 100 && (await saved()) !== NAME; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await saved(), NAME, 'the saved entry');
    // A second turn: whatever title the agent sends now, the name stays.
    await chat.composer.send(config.scenario.reply.prompt);
    await waitFor(chat, 'the second answer', () => chat.thread.turn === 'idle', 60_000);
    assert.equal(chat.title, NAME, transcript(chat));
    if (config.expect.lists) {
      const nodes = await agentSessionNodes(api, config, sessionId);
      const node = nodes.find((n) => n.kind === 'session' && n.listed?.sessionId === sessionId);
      assert.ok(node && node.kind === 'session', 'listed by the agent');
      if (config.expect.storesTitles) assert.equal(node.listed?.title, NAME, "the agent's own listing");
      console.log(`    the agent lists it as ${JSON.stringify(node.listed?.title)}`);
    }
    await api.chats.close(chat.id);
  });
});
