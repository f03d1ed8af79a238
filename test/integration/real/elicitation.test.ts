/**
 * A question from a real agent (after agent.test.ts, same host): Claude Code's
 * model asks the user through its AskUserQuestion tool, the adapter makes it
 * an ACP form elicitation, the chat shows it as a form (a choice of the
 * model's options, about the tool call), and the answer reaches the model.
 */
import type { OpenChat } from '../../../src/extension';
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor } from '../shared/chatWaits';
import { realAgentConfig } from './config';
import { connectedRealChat } from './realChat';
import { chatStatus } from '../../../src/views/chatStatus';

const config = realAgentConfig();

describe(`${config.agent.name}: a question from the agent (real agent, fake model)`, function () {
  this.timeout(180_000);
  let chat: OpenChat;

  it('its model asks through its own tool: a form in the chat, and the answer picked reaches the model', async function () {
    const ask = config.scenario.ask;
    if (!ask) return this.skip();
    const connected = await connectedRealChat(config);
    const api = connected.api;
    chat = connected.chat;
    const sent = chat.composer.send(ask.marker);
    await waitFor(chat, 'the question', () => chatStatus(chat).elicitations.length === 1, 60_000);
    const question = chatStatus(chat).elicitations[0]!;
    assert.equal(question.mode, 'form');
    if (question.mode !== 'form') return;
    assert.equal(question.message, ask.question);
    const choice = question.fields[0]!;
    assert.equal(choice.kind, 'select', JSON.stringify(question.fields));
    assert.deepEqual(choice.kind === 'select' ? choice.options.map((o) => o.title) : [], ask.options);
    await chat.elicitations.answer(question.id, 'accept', { [choice.name]: 'Green' });
    await sent;
    await waitFor(chat, 'the answer', () => chat.thread.turn === 'idle', 60_000);
    assert.equal(lastReply(chat), ask.answered, transcript(chat));
    await api.chats.close(chat.id);
  });
});
