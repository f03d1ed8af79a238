/**
 * Elicitation (no VS Code, the scripted agent): the agent's questions wait in
 * the chat, are answered as the user says (the answer checked again here),
 * cancelled by Stop, and refused at once when hostile: a form the chat cannot
 * show, a URL it will not open, a flood.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import { ElicitationQueue } from '../../../../src/session/elicitationQueue';
import { scriptedHost, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

const form = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string', title: 'Name', minLength: 2 }, tabs: { type: 'boolean', default: true } },
    required: ['name'],
  },
};
const lastText = (chat: Chat) => {
  const last = [...chat.thread.entries].reverse().find((e) => e.kind === 'assistant');
  return last?.kind === 'assistant' ? last.text : '';
};
const notices = (chat: Chat) => chat.thread.entries.flatMap((e) => (e.kind === 'notice' ? [e.text] : []));

describe('elicitation: the agent asks the user (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let chat: Chat;
  afterEach(() => host.dispose());

  async function asking(elicit: object): Promise<void> {
    host = scriptedHost({
      turns: [
        { match: 'ask', steps: [{ toolCall: { toolCallId: 'c1', title: 'Configure', kind: 'other' } }, { elicit }] },
        { match: 'complete', steps: [{ elicit }, { text: 'after' }] },
      ],
    });
    chat = await host.connectedChat();
    void chat.composer.send('ask');
  }

  it('a form waits in the chat (marked in the list) and goes back with the values the user gave, checked', async () => {
    await asking({ ...form, toolCallId: 'c1' });
    await until('the question', () => chatStatus(chat).elicitations.length === 1);
    const [question] = chatStatus(chat).elicitations;
    assert.equal(question?.mode, 'form');
    assert.equal(question?.mode === 'form' && question.toolTitle, 'Configure', 'where it belongs');
    assert.equal(host.chats.summaries().find((s) => s.id === chat.id)?.marker, 'question');
    await chat.elicitations.answer(question!.id, 'accept', { name: 'A' });
    assert.equal(chatStatus(chat).elicitations.length, 1, 'a value that does not fit is not sent');
    await chat.elicitations.answer(question!.id, 'accept', { name: 'Ada', tabs: false, smuggled: 'x' });
    await until('the answer', () => lastText(chat).includes('[elicitation:'));
    assert.equal(lastText(chat), '[elicitation: {"action":"accept","content":{"name":"Ada","tabs":false}}]');
    assert.deepEqual(chatStatus(chat).elicitations, []);
  });

  it('Decline goes back as decline; Stop answers one still waiting with cancel', async () => {
    await asking(form);
    await until('the question', () => chatStatus(chat).elicitations.length === 1);
    await chat.elicitations.answer(chatStatus(chat).elicitations[0]!.id, 'decline');
    await until('the answer', () => lastText(chat).includes('decline'));
    void chat.composer.send('ask');
    await until('the next question', () => chatStatus(chat).elicitations.length === 1);
    chat.stop();
    await until('the turn to end', () => chat.thread.turn === 'idle');
    assert.match(lastText(chat), /\{"action":"cancel"\}/);
  });

  it('a URL: shown with its exact host, opened only once the user agrees', async () => {
    await asking({
      mode: 'url',
      message: 'Sign in there',
      url: 'https://xn--80ak6aa92e.com/login?x=1',
      elicitationId: 'e1',
    });
    await until('the question', () => chatStatus(chat).elicitations.length === 1);
    const [question] = chatStatus(chat).elicitations;
    assert.ok(question?.mode === 'url');
    assert.equal(question.host, 'xn--80ak6aa92e.com');
    assert.deepEqual(host.opened, [], 'nothing opened yet');
    await chat.elicitations.answer(question.id, 'accept');
    await until('the answer', () => lastText(chat).includes('accept'));
    assert.deepEqual(host.opened, ['https://xn--80ak6aa92e.com/login?x=1']);
  });

  for (const [what, url, why] of [
    ['javascript:', 'javascript:alert(1)', /javascript: link/],
    ['file:', 'file:///etc/passwd', /file: link/],
    ['credentials', 'https://user:secret@example.com/', /user name or password/],
    ['3,000 characters', `https://example.com/${'a'.repeat(3_000)}`, /longer than 2048 characters/],
  ] as const) {
    it(`a URL with ${what} is declined at once, and the chat says why`, async () => {
      await asking({ mode: 'url', message: 'Go', url, elicitationId: 'e1' });
      await until('the answer', () => lastText(chat).includes('[elicitation:'));
      assert.equal(lastText(chat), '[elicitation: {"action":"decline"}]');
      assert.ok(
        notices(chat).some((n) => why.test(n)),
        notices(chat).join('\n'),
      );
      assert.deepEqual(host.opened, []);
    });
  }

  it('a request of no known shape (a URL request without a URL) is refused as invalid, before the chat sees it', async () => {
    await asking({ mode: 'url', message: 'Go', url: 42, elicitationId: 'e1' });
    await until('the answer', () => lastText(chat).includes('[elicitation:'));
    assert.match(lastText(chat), /^\[elicitation: error Invalid params/);
    assert.deepEqual(chatStatus(chat).elicitations, []);
  });

  it('a form it cannot show (a nested object, an unknown mode) is declined at once, and the chat says why', async () => {
    await asking({ ...form, requestedSchema: { type: 'object', properties: { deep: { type: 'object' } } } });
    await until('the answer', () => lastText(chat).includes('[elicitation:'));
    assert.equal(lastText(chat), '[elicitation: {"action":"decline"}]');
    assert.ok(
      notices(chat).some((n) => /kind not supported \(object\)/.test(n)),
      notices(chat).join('\n'),
    );
  });

  it('a flood: eight wait, the rest are cancelled at once, said once', async () => {
    await asking({ ...form, count: 50 });
    await until('eight questions', () => chatStatus(chat).elicitations.length === 8);
    chat.stop();
    await until('the tally', () => lastText(chat).startsWith('[elicitations:'));
    assert.equal(lastText(chat), '[elicitations: 50 cancel]');
    assert.equal(notices(chat).filter((n) => /more than 8 questions at once/.test(n)).length, 1);
  });

  it("the agent's elicitation/complete closes a URL request still waiting", async () => {
    const queue = new ElicitationQueue(async () => true);
    const answered = queue.request(
      { sessionId: 's', mode: 'url', message: 'm', url: 'https://example.com/', elicitationId: 'e7' } as never,
      undefined,
      new AbortController().signal,
    );
    assert.equal(queue.views.length, 1);
    queue.complete('other');
    assert.equal(queue.views.length, 1, 'only its own id');
    queue.complete('e7');
    assert.deepEqual(await answered, { action: 'cancel' });
    assert.deepEqual(queue.views, []);
  });
});
