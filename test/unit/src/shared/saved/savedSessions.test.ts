import * as assert from 'node:assert/strict';
import {
  MAX_HISTORY_LIMIT,
  MAX_SAVED_CHARS,
  parseIndex,
  savedEntryId,
  savedTranscriptSchema,
  transcriptToSave,
  upsert,
  withFreshIds,
  type HistoryEntry,
} from '../../../../../src/shared/saved/savedSessions';
import type { Entry } from '../../../../../src/shared/thread/thread';

const entry = (n: number, extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  key: `s${n}`,
  agentId: 'claude',
  sessionId: `sess-${n}`,
  cwd: '/w',
  title: `Chat ${n}`,
  createdAt: n,
  updatedAt: n,
  ...extra,
});

describe('saved chat history', () => {
  it('reads what parses from a hand-edited index, newest first, and counts the rest', () => {
    const raw = {
      version: 1,
      sessions: [
        entry(1),
        entry(3),
        { key: '../../etc/passwd', agentId: 'x', sessionId: 'y', cwd: '/', title: 't', createdAt: 1, updatedAt: 1 },
        'garbage',
        null,
        { ...entry(4), updatedAt: 'yesterday' },
        entry(2, { title: 'Title with \u202e bidi <b>markup</b>\n' }),
        // The same agent session twice, or the same file twice: the first one wins.
        entry(5, { key: 's1' }),
        entry(6, { sessionId: 'sess-3' }),
      ],
    };
    const { sessions, unreadable } = parseIndex(raw);
    assert.deepEqual(
      sessions.map((s) => s.key),
      ['s3', 's2', 's1'],
    );
    assert.equal(unreadable, 4);
    assert.equal(sessions[1].title, 'Title with bidi <b>markup</b>', 'cleaned to one line, still plain text');
  });

  it('an index that is not one at all reads as empty, with one unreadable', () => {
    for (const raw of [null, 42, 'text', [], { sessions: 'no' }]) {
      assert.deepEqual(parseIndex(raw), { sessions: [], unreadable: 1 });
    }
    assert.deepEqual(parseIndex(undefined), { sessions: [], unreadable: 0 });
  });

  it('keeps the most recently used up to maxHistory (1 to 200), replacing a session saved again', () => {
    let sessions: HistoryEntry[] = [];
    const dropped: string[] = [];
    for (let n = 1; n <= 5; n++) {
      const result = upsert(sessions, entry(n), 3);
      sessions = result.sessions;
      dropped.push(...result.dropped.map((d) => d.key));
    }
    assert.deepEqual(
      sessions.map((s) => s.key),
      ['s5', 's4', 's3'],
    );
    assert.deepEqual(dropped, ['s1', 's2']);
    // Saving an older session again moves it to the top, without a duplicate.
    const again = upsert(sessions, entry(3, { updatedAt: 10 }), 3);
    assert.deepEqual(
      again.sessions.map((s) => s.key),
      ['s3', 's5', 's4'],
    );
    assert.deepEqual(again.dropped, []);
    // Saved in the same millisecond as the newest: the one just saved is kept, not dropped.
    const tie = upsert([entry(7, { updatedAt: 50 }), entry(8, { updatedAt: 40 })], entry(9, { updatedAt: 50 }), 2);
    assert.deepEqual(
      tie.sessions.map((s) => s.key),
      ['s9', 's7'],
    );
    assert.equal(upsert([], entry(1), 0).sessions.length, 1, 'at least one');
    const many = Array.from({ length: 300 }, (_, i) => entry(i));
    assert.equal(upsert(many, entry(1000), 10_000).sessions.length, MAX_HISTORY_LIMIT);
  });

  it('a saved transcript keeps the newest entries within its bound, says what was left out, and the terminals they show', () => {
    const big = 'x'.repeat(1024 * 1024);
    const entries: Entry[] = [];
    for (let i = 0; i < 10; i++) entries.push({ kind: 'assistant', id: `a${i}`, text: `${i}${big}` });
    entries.push({
      kind: 'tool',
      id: 't1',
      toolCallId: 'call-1',
      title: 'Run',
      toolKind: 'execute',
      status: 'completed',
      content: [{ type: 'terminal', terminalId: 'term-1', output: 'hello\n' }],
      locations: [],
    });
    const terminals = { 'term-1': { output: 'hello\n', exitCode: 0 }, 'term-old': { output: 'gone' } };
    const saved = transcriptToSave({ entries, terminals });
    const size = saved.entries.reduce((n, e) => n + (e.kind === 'assistant' ? e.text.length : 0), 0);
    assert.ok(size <= MAX_SAVED_CHARS, `${size} characters saved`);
    assert.equal(saved.entries[0].kind, 'notice');
    assert.match(
      saved.entries[0].kind === 'notice' ? saved.entries[0].text : '',
      /^The 7 oldest entries of this chat were not saved/,
    );
    assert.equal(saved.entries.at(-1)?.id, 't1', 'the newest entry is kept');
    assert.deepEqual(Object.keys(saved.terminals), ['term-1']);
    assert.ok(savedTranscriptSchema.safeParse(JSON.parse(JSON.stringify(saved))).success, 'what is saved reads back');
    // One entry larger than the bound is still kept, whole.
    const huge = transcriptToSave({
      entries: [{ kind: 'user', id: 'u', text: 'y'.repeat(MAX_SAVED_CHARS * 2) }],
      terminals: {},
    });
    assert.equal(huge.entries.length, 1);
  });

  it('a transcript opened again gets ids of its own chat', () => {
    const saved = transcriptToSave({
      entries: [
        { kind: 'user', id: 'c3e1', text: 'hi' },
        { kind: 'assistant', id: 'c3e2', text: 'hello' },
      ],
      terminals: {},
    });
    assert.deepEqual(
      withFreshIds(saved, 'c9').map((e) => e.id),
      ['c9s0', 'c9s1'],
    );
    assert.equal(
      transcriptToSave({ entries: [], terminals: {}, title: 'Fix \u202ethe parser' }).title,
      'Fix \u202ethe parser',
      "the agent's title is saved (and cleaned when read back)",
    );
    assert.equal(
      savedTranscriptSchema.parse({ version: 1, title: 'Fix \u202ethe parser', entries: [], terminals: {} }).title,
      'Fix the parser',
    );
  });

  it("saves the Changes bar and each turn's changes by its prompt's place, and reads them back; a damaged record loses only them", () => {
    const hash = (c: string) => c.repeat(64);
    // Before: Git's object (a file as the repository's index had it, not copied); after: a copy.
    const edit = {
      path: '/w/a.ts',
      before: { size: 3, hash: `git:${'a'.repeat(40)}` },
      after: { size: 4, hash: hash('b') },
    };
    const created = { path: '/w/new.ts', after: { size: 9, hash: hash('c') } };
    const big = {
      path: '/w/big.bin',
      before: { size: 9e6, missing: 'too-large' as const },
      after: { size: 9e6, missing: 'too-large' as const },
    };
    const entries: Entry[] = [
      { kind: 'user', id: 'c1e1', text: 'first' },
      { kind: 'assistant', id: 'c1e2', text: 'ok' },
      { kind: 'user', id: 'c1e3', text: 'second' },
    ];
    const saved = transcriptToSave({ entries, terminals: {} }, MAX_SAVED_CHARS, {
      bar: [edit, created, big],
      turns: [
        { entryId: 'c1e1', files: [edit] },
        { entryId: 'c1e3', files: [created, big] },
        { entryId: 'gone', files: [edit] },
      ],
    });
    const read = savedTranscriptSchema.parse(JSON.parse(JSON.stringify(saved)));
    assert.deepEqual(
      read.changes,
      {
        bar: [edit, created, big],
        turns: [
          { entry: 0, files: [edit] },
          { entry: 2, files: [created, big] },
        ],
      },
      'a turn whose prompt was not saved is left out',
    );
    assert.equal(
      savedEntryId('c7', read.changes!.turns[1].entry),
      withFreshIds(read, 'c7')[2].id,
      'the turn names its prompt as the chat shows it again',
    );
    const damaged = {
      ...JSON.parse(JSON.stringify(saved)),
      changes: { bar: [{ path: '/w/a.ts', before: { size: 1, hash: 'git:../x' } }], turns: [] },
    };
    const parsed = savedTranscriptSchema.parse(damaged);
    assert.equal(parsed.changes, undefined);
    assert.equal(parsed.entries.length, 3, 'the transcript still reads');
  });
});
