/** Where Edit, Retry and Branch cut a conversation, and what a new session is told of what came before. */
import * as assert from 'node:assert/strict';
import { cutAfterTurn, cutBefore, earlierTurnsText, MAX_CONTEXT_CHARS } from '../../../../src/chat/rewindCut';
import type { Entry } from '../../../../src/shared/thread/thread';

const entries: Entry[] = [
  { kind: 'user', id: 'u1', text: 'first' },
  { kind: 'thought', id: 't1', text: 'hmm' },
  { kind: 'assistant', id: 'a1', text: 'one', messageId: 'm1' },
  {
    kind: 'tool',
    id: 'k1',
    toolCallId: 'c1',
    title: 'Read a.txt',
    toolKind: 'read',
    status: 'completed',
    content: [],
    locations: [],
  },
  { kind: 'assistant', id: 'a1b', text: 'one more', messageId: 'm1b' },
  { kind: 'user', id: 'u2', text: 'second' },
  { kind: 'user', id: 's2', text: 'steered in', steered: true },
  { kind: 'assistant', id: 'a2', text: 'two', messageId: 'm2' },
  { kind: 'notice', id: 'n2', level: 'info', text: 'a notice' },
  { kind: 'user', id: 'u3', text: 'third' },
  { kind: 'assistant', id: 'a3', text: 'three' },
];
const ids = (list: readonly Entry[]) => list.map((e) => e.id);

describe('cutting a conversation (Edit, Retry, Branch)', () => {
  it('Edit keeps what came before the prompt, and forks at the last message the agent sent before it', () => {
    const cut = cutBefore(entries, 'u2')!;
    assert.deepEqual(ids(cut.kept), ['u1', 't1', 'a1', 'k1', 'a1b']);
    assert.deepEqual(cut.fork, { messageId: 'm1b', whole: false });
  });

  it('Edit of the first prompt keeps nothing and needs no fork', () => {
    const cut = cutBefore(entries, 'u1')!;
    assert.deepEqual(cut.kept, []);
    assert.equal(cut.fork, undefined);
    assert.equal(cut.context, '');
  });

  it('Branch keeps the prompt and its whole turn (a message steered into it too); at the last turn the whole session', () => {
    const second = cutAfterTurn(entries, 'u2')!;
    assert.deepEqual(ids(second.kept), ['u1', 't1', 'a1', 'k1', 'a1b', 'u2', 's2', 'a2', 'n2']);
    assert.deepEqual(second.fork, { messageId: 'm2', whole: false });
    const last = cutAfterTurn(entries, 'u3')!;
    assert.equal(last.kept.length, entries.length);
    // The last turn's answer has no id: no fork at a message (it would leave that turn out); a whole fork is right.
    assert.deepEqual(last.fork, { whole: true });
  });

  it('refuses what is not a prompt of the transcript: an answer, a steered message, an unknown id', () => {
    for (const id of ['a1', 's2', 'nope']) {
      assert.equal(cutBefore(entries, id), undefined, id);
      assert.equal(cutAfterTurn(entries, id), undefined, id);
    }
  });

  it('tells a new session the earlier turns: the prompts and answers in order, tool calls by title, no thoughts or notices', () => {
    const text = cutBefore(entries, 'u3')!.context;
    assert.match(text, /^The conversation so far \(a new session continues it\):/);
    const body = text.slice(text.indexOf('\n'));
    assert.deepEqual(
      [...body.matchAll(/^(User|Assistant|Tool call): (.*)$/gm)].map((m) => `${m[1]}: ${m[2]}`),
      [
        'User: first',
        'Assistant: one',
        'Tool call: Read a.txt',
        'Assistant: one more',
        'User: second',
        'User: steered in',
        'Assistant: two',
      ],
    );
    assert.doesNotMatch(text, /hmm|a notice/);
  });

  it('keeps the newest part of a long conversation, and says so', () => {
    const long: Entry[] = Array.from({ length: 40 }, (_, i) => [
      { kind: 'user', id: `u${i}`, text: `prompt ${i}` } as Entry,
      { kind: 'assistant', id: `a${i}`, text: `${i} `.repeat(5_000) } as Entry,
    ]).flat();
    const text = earlierTurnsText(long);
    assert.ok(text.length <= MAX_CONTEXT_CHARS + 200, `${text.length}`);
    assert.match(text, /earlier part left out/);
    assert.match(text, /User: prompt 39/);
    assert.doesNotMatch(text, /User: prompt 0\n/);
  });
});
