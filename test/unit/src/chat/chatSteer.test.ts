/**
 * Steer (no VS Code, the scripted agent): a queued prompt put into the
 * running turn where the agent advertises steering, shown in the transcript
 * where it went in; never lost when the agent does not take it.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import { threadToMarkdown } from '../../../../src/shared/threadMarkdown';
import { scriptedHost, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

const queuedTexts = (chat: Chat) => chatStatus(chat).queued.map((q) => q.text);
const idOf = (chat: Chat, text: string) => chatStatus(chat).queued.find((q) => q.text === text)!.id;
/** What the transcript shows, one line per entry. */
const shown = (chat: Chat) =>
  chat.thread.entries.map((e) =>
    e.kind === 'user' ? `${e.steered ? 'steered' : 'user'}: ${e.text}` : 'text' in e ? e.text : e.kind,
  );

const turns = [
  // Answers, waits for a message steered in, answers that, then says what it was sent.
  { match: 'steer me', steps: [{ text: 'Working on it.' }, { waitForSteer: true }, { reportHistory: true }] },
  { match: 'slow', steps: [{ text: 'Working.' }, { sleep: 400 }, { reportHistory: true }] },
  { match: '', steps: [{ reportHistory: true }] },
];

describe('Steer: a queued prompt into the running turn (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let chat: Chat;
  afterEach(() => host.dispose());

  async function connect(steering: unknown): Promise<void> {
    host = scriptedHost({ steering, turns });
    chat = await host.connectedChat();
  }

  /** Sends `prompt` and resolves once the agent is answering it. */
  async function answering(prompt: string): Promise<void> {
    void chat.composer.send(prompt);
    await until('the answer to start', () => chat.thread.entries.some((e) => e.kind === 'assistant'));
  }

  it('goes into the answer where the agent takes it: shown there, the rest of the queue follows as turns', async () => {
    await connect(true);
    assert.equal(chatStatus(chat).steers, false, 'no turn runs: nothing to steer into');
    await answering('steer me');
    assert.equal(chatStatus(chat).steers, true);
    await chat.composer.send('queued after');
    await chat.composer.send('change course');
    const steering = chat.composer.queued('steer', idOf(chat, 'change course'));
    assert.equal(chatStatus(chat).queued.find((q) => q.text === 'change course')?.steering, true, 'marked on its way');
    await steering;
    await until(
      'the turn and the queue to end',
      () => chatStatus(chat).turn === 'idle' && chatStatus(chat).queued.length === 0,
    );
    assert.deepEqual(shown(chat), [
      'user: steer me',
      'Working on it.',
      'steered: change course',
      '[steered: change course][history of sess-1: steer me | change course]',
      'user: queued after',
      '[history of sess-1: steer me | change course | queued after]',
    ]);
    assert.match(threadToMarkdown(chat.thread), /## User \(steered into the answer\)\n\nchange course/);
  });

  it('is not offered by an agent that does not advertise it; the prompt stays queued', async () => {
    await connect(false);
    await answering('slow one');
    await chat.composer.send('later');
    assert.equal(chatStatus(chat).steers, false);
    await chat.composer.queued('steer', idOf(chat, 'later'));
    assert.deepEqual(queuedTexts(chat), ['later']);
    await until('sent after the turn', () => chatStatus(chat).queued.length === 0 && chatStatus(chat).turn === 'idle');
    assert.ok(shown(chat).includes('[history of sess-1: slow one | later]'));
  });

  it('goes as the next prompt when the turn had ended before the agent got it', async () => {
    // The agent's answer when the steer came too late.
    await connect({ answer: { outcome: 'promptRequired', reason: 'noRunningTurn' } });
    await answering('slow one');
    await chat.composer.send('too late');
    await chat.composer.queued('steer', idOf(chat, 'too late'));
    assert.equal(chatStatus(chat).queued[0]?.steering, undefined, 'waiting again');
    await until('sent after the turn', () => chatStatus(chat).queued.length === 0 && chatStatus(chat).turn === 'idle');
    assert.deepEqual(shown(chat).slice(-2), ['user: too late', '[history of sess-1: slow one | too late]']);
  });

  for (const [what, answer] of [
    ['an outcome it does not know', { outcome: 'maybe' }],
    ['no object', 'injected'],
    ['failed', { outcome: 'failed' }],
  ] as const) {
    it(`stays queued, said in the chat, when the agent answers ${what}`, async () => {
      await connect({ answer });
      await answering('slow one');
      await chat.composer.send('keep me');
      await chat.composer.queued('steer', idOf(chat, 'keep me'));
      assert.deepEqual(queuedTexts(chat), ['keep me']);
      assert.equal(chatStatus(chat).queued[0]?.steering, undefined);
      const last = chat.thread.entries.at(-1);
      assert.ok(
        last?.kind === 'notice' && /did not take the message into its answer\. It stays queued/.test(last.text),
      );
      assert.ok(!chat.thread.entries.some((e) => e.kind === 'user' && e.steered), 'not shown as steered');
      await until(
        'sent after the turn',
        () => chatStatus(chat).queued.length === 0 && chatStatus(chat).turn === 'idle',
      );
    });
  }

  it('while on its way, Send now, Edit and Remove leave it alone', async () => {
    await connect(true);
    await answering('steer me');
    await chat.composer.send('on its way');
    const id = idOf(chat, 'on its way');
    const steering = chat.composer.queued('steer', id);
    await chat.composer.queued('remove', id);
    await chat.composer.queued('edit', id);
    await chat.composer.queued('sendNow', id);
    await steering;
    assert.equal(chatStatus(chat).returnedDraft, undefined, 'not handed back');
    await until('the turn to end', () => chatStatus(chat).turn === 'idle');
    assert.ok(shown(chat).includes('steered: on its way'), shown(chat).join('\n'));
  });

  describe('to an agent that asks for steered messages (Qwen Code: craft/drainMidTurnQueue)', () => {
    const pulling = (steps: object[]) =>
      scriptedHost({
        agentInfo: { name: 'qwen-code', version: '0.24.4' },
        turns: [
          { match: 'pull me', steps },
          { match: '', steps: [{ reportHistory: true }] },
        ],
      });

    it('waits until the agent asks, then goes into its answer there and leaves the queue', async () => {
      host = pulling([{ text: 'Working on it.' }, { pullSteer: { waitMs: 5000 } }, { reportHistory: true }]);
      chat = await host.connectedChat();
      await answering('pull me');
      assert.equal(chatStatus(chat).steers, true, 'offered, though the agent advertises nothing');
      await chat.composer.send('queued after');
      await chat.composer.send('change course');
      await chat.composer.queued('steer', idOf(chat, 'change course'));
      await until(
        'the turn and the queue to end',
        () => chatStatus(chat).turn === 'idle' && chatStatus(chat).queued.length === 0,
      );
      assert.deepEqual(shown(chat), [
        'user: pull me',
        'Working on it.',
        'steered: change course',
        '[pulled: change course | more queued: true][history of sess-1: pull me | change course]',
        'user: queued after',
        '[history of sess-1: pull me | change course | queued after]',
      ]);
    });

    it('goes as the next prompt when the turn ends before the agent asks; an agent that asks finds nothing', async () => {
      host = pulling([{ text: 'Working.' }, { pullSteer: { waitMs: 0 } }, { sleep: 300 }, { reportHistory: true }]);
      chat = await host.connectedChat();
      await answering('pull me');
      await until('the agent asked once', () => shown(chat).some((t) => t.includes('[pulled:')));
      await chat.composer.send('too late');
      await chat.composer.queued('steer', idOf(chat, 'too late'));
      assert.equal(chatStatus(chat).queued[0]?.steering, true, 'waiting for the agent to ask');
      await until(
        'sent after the turn',
        () => chatStatus(chat).queued.length === 0 && chatStatus(chat).turn === 'idle',
      );
      assert.deepEqual(shown(chat).slice(1), [
        'Working.[pulled:  | more queued: false][history of sess-1: pull me]',
        'user: too late',
        '[history of sess-1: pull me | too late]',
      ]);
    });
  });
});
