/**
 * Both hosts: questions from the agent (elicitation) as the chat core answers
 * them: Decline goes back as decline, Stop cancels one still open, a page to
 * open is shown with its exact host and opened only on consent, and a
 * `javascript:` page is declined at once with the reason in the chat. (A form
 * filled by keyboard in the real workbench: test/ui, checkElicitation.)
 */
import * as assert from './assert';
import { lastReply, transcript, waitFor } from './chatWaits';
import { newChatWithTestAgent } from './host';
import { chatStatus } from '../../../src/views/chatStatus';

describe('questions from the agent', function () {
  this.timeout(60_000);

  it('a form: Decline answers decline; Stop answers one still open with cancel', async () => {
    const { api, chat } = await newChatWithTestAgent();
    const declined = chat.composer.send('ask me');
    await waitFor(chat, 'the question', () => chatStatus(chat).elicitations.length === 1);
    assert.equal(api.chats.summaries().find((s) => s.id === chat.id)?.marker, 'question');
    await chat.elicitations.answer(chatStatus(chat).elicitations[0]!.id, 'decline');
    await declined;
    assert.equal(lastReply(chat), '[elicitation: {"action":"decline"}]', transcript(chat));
    const stopped = chat.composer.send('ask me');
    await waitFor(chat, 'the next question', () => chatStatus(chat).elicitations.length === 1);
    chat.stop();
    await stopped;
    await waitFor(chat, 'the turn to end', () => chat.thread.turn === 'idle');
    assert.match(transcript(chat), /\[elicitation: \{"action":"cancel"\}\]/);
    assert.deepEqual(chatStatus(chat).elicitations, []);
    await api.chats.close(chat.id);
  });

  it('a page to open: shown with its exact host until answered; a javascript: page is declined at once, and said', async () => {
    const { api, chat } = await newChatWithTestAgent();
    const page = chat.composer.send('ask page');
    await waitFor(chat, 'the page', () => chatStatus(chat).elicitations.length === 1);
    const question = chatStatus(chat).elicitations[0]!;
    assert.equal(question.mode, 'url');
    assert.equal(question.mode === 'url' && question.host, 'sign-in.example.com');
    await chat.elicitations.answer(question.id, 'decline');
    await page;
    assert.equal(lastReply(chat), '[elicitation: {"action":"decline"}]', transcript(chat));

    await chat.composer.send('ask javascript');
    assert.equal(lastReply(chat), '[elicitation: {"action":"decline"}]', transcript(chat));
    assert.match(transcript(chat), /javascript: link/);
    assert.deepEqual(chatStatus(chat).elicitations, [], 'never shown');
    await api.chats.close(chat.id);
  });
});
