/**
 * Golden transcripts: each test/unit/src/shared/golden/NAME.json is a list of thread
 * actions (ids are filled in), reduced and rendered to Markdown, and compared
 * with NAME.md. UPDATE_GOLDEN=1 rewrites the .md files.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyThread, entrySchema, type Thread } from '../../../../../src/shared/thread/thread';
import { reduceThread, type ThreadAction } from '../../../../../src/shared/thread/threadReducer';
import { threadToMarkdown } from '../../../../../src/shared/threadMarkdown';
import { grownSince } from '../../../../../src/shared/text/textGrowth';

const goldenDir = path.resolve(__dirname, '../../test/unit/src/shared/golden');

/** A thread action without its id (distributes over the union). */
type Unnumbered = ThreadAction extends infer A ? (A extends ThreadAction ? Omit<A, 'id'> : never) : never;

function play(actions: Unnumbered[]): Thread {
  return actions.reduce<Thread>((t, a, i) => reduceThread(t, { ...a, id: `e${i + 1}` } as ThreadAction), emptyThread);
}

describe('thread reducer: golden transcripts', () => {
  for (const file of fs
    .readdirSync(goldenDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    it(file.replace(/\.json$/, ''), () => {
      const actions = JSON.parse(fs.readFileSync(path.join(goldenDir, file), 'utf8')) as Unnumbered[];
      const actual = threadToMarkdown(play(actions));
      const goldenFile = path.join(goldenDir, file.replace(/\.json$/, '.md'));
      if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(goldenFile, actual);
      assert.equal(actual, fs.readFileSync(goldenFile, 'utf8'));
    });
  }
});

describe('thread reducer: identity', () => {
  const chunk = (text: string): Unnumbered => ({
    type: 'update',
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });

  it('keeps unchanged entries identical, so the view patches only the changed one', () => {
    const before = play([{ type: 'prompt', text: 'hi' }, chunk('a')]);
    const after = reduceThread(before, { ...chunk('b'), id: 'x' } as ThreadAction);
    assert.equal(after.entries[0], before.entries[0]);
    assert.notEqual(after.entries[1], before.entries[1]);
    assert.equal(after.entries.length, 2);
  });

  it('returns the same thread for update kinds it does not show', () => {
    const before = play([{ type: 'prompt', text: 'hi' }]);
    const after = reduceThread(before, {
      type: 'update',
      id: 'x',
      update: { sessionUpdate: 'some_future_kind' } as never,
    });
    assert.equal(after, before);
  });
});

describe('thread reducer: text between turns', () => {
  const chunk = (text: string): Unnumbered => ({
    type: 'update',
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });

  it('never joins the last answer: text after the turn ended (Gemini CLI after a mode change) is a message of its own', () => {
    const thread = play([
      { type: 'prompt', text: 'hi' },
      chunk('The answer.'),
      { type: 'turnEnded', stopReason: 'end_turn' },
      chunk('[MODE_UPDATE] '),
      chunk('autoEdit'),
    ]);
    assert.deepEqual(
      thread.entries.map((e) => (e.kind === 'assistant' ? e.text : e.kind)),
      ['user', 'The answer.', '[MODE_UPDATE] autoEdit'],
    );
    // The next turn's answer is its own too.
    const next = reduceThread(reduceThread(thread, { type: 'prompt', id: 'p2', text: 'again' }), {
      ...chunk('Second.'),
      id: 'c2',
    } as ThreadAction);
    assert.deepEqual(
      next.entries.slice(-2).map((e) => (e.kind === 'assistant' ? e.text : e.kind)),
      ['user', 'Second.'],
    );
  });
});

describe('thread reducer: hostile ids', () => {
  it('a terminal id such as "constructor" or "__proto__" is an id like any other, never an inherited property', () => {
    for (const terminalId of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const thread = play([
        { type: 'prompt', text: 'hi' },
        {
          type: 'update',
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 't',
            title: 'run',
            kind: 'execute',
            content: [{ type: 'terminal', terminalId }],
          },
        },
        { type: 'terminal', terminalId: 'other', data: 'x' },
      ]);
      for (const entry of thread.entries) {
        assert.equal(entrySchema.safeParse(entry).success, true, `${terminalId}: ${JSON.stringify(entry)}`);
      }
      const tool = thread.entries[1];
      assert.deepEqual(tool?.kind === 'tool' ? tool.content : undefined, [
        { type: 'terminal', terminalId, output: '' },
      ]);
      const after = reduceThread(thread, { type: 'terminal', id: 'z', terminalId, data: 'out' });
      const shown = after.entries[1];
      assert.deepEqual(shown?.kind === 'tool' ? shown.content : undefined, [
        { type: 'terminal', terminalId, output: 'out' },
      ]);
    }
  });
});

describe('thread reducer: which entry a chunk joins', () => {
  type Kind = 'user' | 'assistant' | 'thought';
  const KINDS: Record<Kind, string> = {
    user: 'user_message_chunk',
    assistant: 'agent_message_chunk',
    thought: 'agent_thought_chunk',
  };
  const chunk = (kind: Kind, text: string): Unnumbered =>
    ({ type: 'update', update: { sessionUpdate: KINDS[kind], content: { type: 'text', text } } }) as Unnumbered;
  const shown = (thread: Thread) => thread.entries.map((e) => `${e.kind}:${'text' in e ? e.text : ''}`);

  // Outside a turn (a session/load replay), where user chunks are history too.
  for (const first of Object.keys(KINDS) as Kind[]) {
    for (const second of Object.keys(KINDS) as Kind[]) {
      const same = first === second;
      it(`a ${second} chunk after a ${first} chunk ${same ? 'joins it' : 'starts an entry of its own'}`, () => {
        const thread = play([chunk(first, 'one '), chunk(second, 'two')]);
        assert.deepEqual(shown(thread), same ? [`${first}:one two`] : [`${first}:one `, `${second}:two`]);
      });
    }
  }

  it('a chunk after a tool call or a notice starts a new entry, even of the kind before them', () => {
    const thread = play([
      chunk('assistant', 'before'),
      { type: 'update', update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'pending' } },
      chunk('assistant', 'after'),
      { type: 'notice', level: 'info', text: 'note' },
      chunk('assistant', 'last'),
    ]);
    assert.deepEqual(
      thread.entries.map((e) => e.kind),
      ['assistant', 'tool', 'assistant', 'notice', 'assistant'],
    );
    assert.deepEqual(
      thread.entries.filter((e) => e.kind === 'assistant').map((e) => ('text' in e ? e.text : '')),
      ['before', 'after', 'last'],
    );
  });
});

describe('thread reducer: the end of a turn, notices, content', () => {
  const tool = (toolCallId: string, status: string): Unnumbered => ({
    type: 'update',
    update: { sessionUpdate: 'tool_call', toolCallId, title: toolCallId, status } as never,
  });
  const statuses = (thread: Thread) =>
    thread.entries
      .filter((e) => e.kind === 'tool')
      .map((e) => (e.kind === 'tool' ? `${e.toolCallId}:${e.status}` : ''));

  it('cancels the tool calls a turn leaves pending or running, and no others', () => {
    const thread = play([
      { type: 'prompt', text: 'go' },
      tool('a', 'pending'),
      tool('b', 'in_progress'),
      tool('c', 'completed'),
      tool('d', 'failed'),
      { type: 'turnEnded', stopReason: 'end_turn' },
    ]);
    assert.deepEqual(statuses(thread), ['a:cancelled', 'b:cancelled', 'c:completed', 'd:failed']);
    assert.equal(thread.turn, 'idle');
    const settled = play([
      { type: 'prompt', text: 'go' },
      tool('c', 'completed'),
      { type: 'turnEnded', stopReason: 'end_turn' },
    ]);
    assert.deepEqual(statuses(settled), ['c:completed']);
  });

  it('updates a tool call by its id wherever it is, and adds one first seen in an update', () => {
    const thread = play([
      tool('a', 'pending'),
      tool('b', 'pending'),
      {
        type: 'update',
        update: { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'a again', status: 'in_progress' },
      },
      { type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'completed' } },
      {
        type: 'update',
        update: { sessionUpdate: 'tool_call_update', toolCallId: 'new', status: 'pending', title: 'seen late' },
      },
    ]);
    assert.deepEqual(statuses(thread), ['a:in_progress', 'b:completed', 'new:pending']);
    assert.equal(thread.entries.length, 3);
  });

  it('says why a turn stopped, and seals the last entry so later text starts a message of its own', () => {
    const notices = (reason: string) =>
      play([
        { type: 'prompt', text: 'go' },
        { type: 'turnEnded', stopReason: reason as never },
      ])
        .entries.filter((e) => e.kind === 'notice')
        .map((e) => (e.kind === 'notice' ? `${e.level}: ${e.text}` : ''));
    assert.deepEqual(notices('end_turn'), []);
    assert.deepEqual(notices('cancelled'), ['info: Stopped.']);
    assert.deepEqual(notices('max_tokens'), ['warning: The agent stopped: it reached its token limit.']);
    assert.deepEqual(notices('something_new'), ['warning: The turn ended: something_new.']);
    const failed = play([
      { type: 'prompt', text: 'go' },
      { type: 'turnFailed', message: 'boom' },
    ]);
    assert.deepEqual(
      failed.entries.map((e) => (e.kind === 'notice' ? `${e.level}: ${e.text}` : e.kind)),
      ['user', 'error: boom'],
    );
    assert.equal(failed.sealedEntryId, failed.entries.at(-1)!.id);
  });

  it('shows an agent notice with its severity, unknown severities as info', () => {
    const notice = (severity: string, description?: string) => {
      const thread = play([
        {
          type: 'update',
          update: {
            sessionUpdate: 'notice',
            severity,
            title: 'Heads up',
            ...(description ? { description } : {}),
          } as never,
        },
      ]);
      const e = thread.entries[0];
      return e?.kind === 'notice' ? `${e.level}: ${e.text}` : JSON.stringify(e);
    };
    assert.equal(notice('error', 'details'), 'error: Heads up: details');
    assert.equal(notice('warning'), 'warning: Heads up');
    assert.equal(notice('info'), 'info: Heads up');
    assert.equal(notice('critical'), 'info: Heads up');
  });

  it('names an image or audio block by a media type only when it looks like one', () => {
    const shown = (block: object) => {
      const e = play([{ type: 'update', update: { sessionUpdate: 'agent_message_chunk', content: block } as never }])
        .entries[0];
      return e?.kind === 'assistant' ? e.text.trim() : '';
    };
    assert.equal(shown({ type: 'image', mimeType: 'image/png', data: '' }), '_Image (image/png), not shown_');
    assert.equal(shown({ type: 'audio', mimeType: 'audio/wav', data: '' }), '_Audio (audio/wav), not played_');
    for (const hostile of [
      'x](javascript:alert(1)) image/png',
      'image/png\n# heading',
      'image/png)',
      `${'a'.repeat(65)}/png`,
      'image/',
      '',
    ]) {
      assert.equal(
        shown({ type: 'image', mimeType: hostile, data: '' }),
        '_Image (unknown type), not shown_',
        JSON.stringify(hostile),
      );
    }
    assert.equal(shown({ type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AA==' } }), '[file:///a.bin]');
    assert.equal(shown({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'inline' } }), 'inline');
  });

  it("replays a prompt's attachments as chips on the user's message, a selection by its lines", () => {
    const chunk = (content: object): Unnumbered => ({
      type: 'update',
      update: { sessionUpdate: 'user_message_chunk', content } as never,
    });
    const thread = play([
      chunk({ type: 'text', text: 'look' }),
      chunk({ type: 'resource', resource: { uri: 'file:///w/src/a.ts#L3-L9', text: 'code' } }),
      chunk({ type: 'resource', resource: { uri: 'file:///w/src/b.ts', text: 'more' } }),
      chunk({ type: 'image', mimeType: 'image/png', data: '' }),
      chunk({ type: 'resource_link', uri: 'file:///w/c.md', name: '  c.md \n\t notes ' }),
    ]);
    assert.equal(thread.entries.length, 1);
    const user = thread.entries[0];
    assert.ok(user.kind === 'user');
    assert.equal(user.text, 'look');
    assert.deepEqual(user.attachments, [
      { label: 'a.ts:L3-L9', icon: 'selection' },
      { label: 'b.ts', icon: 'file' },
      { label: 'Image (image/png)', icon: 'image' },
      { label: 'c.md notes', icon: 'file' },
    ]);
  });
});

describe('thread reducer: what each action leaves', () => {
  const tool = (toolCallId: string, status: string, extra: object = {}): Unnumbered => ({
    type: 'update',
    update: { sessionUpdate: 'tool_call', toolCallId, title: toolCallId, status, ...extra } as never,
  });
  const statuses = (thread: Thread) =>
    thread.entries
      .filter((e) => e.kind === 'tool')
      .map((e) => (e.kind === 'tool' ? `${e.toolCallId}:${e.status}` : ''));

  it('a control the agent accepted replaces the controls; an action of no known type is a bug, not ignored', () => {
    const controls = { configOptions: [], commands: [{ name: 'plan', description: 'Plan first' }] };
    const thread = reduceThread(emptyThread, { type: 'controlsChanged', id: 'c', controls });
    assert.deepEqual(thread.controls, controls);
    assert.deepEqual(thread.entries, []);
    assert.throws(() => reduceThread(emptyThread, { type: 'someday', id: 'x' } as never), /Unexpected value/);
  });

  it('a notice keeps its action, and has none when it was given none', () => {
    const action = 'signIn' as const;
    const [withAction, without] = play([
      { type: 'notice', level: 'warning', text: 'Sign in first', action },
      { type: 'notice', level: 'info', text: 'plain' },
    ]).entries;
    assert.deepEqual(withAction, { kind: 'notice', id: 'e1', level: 'warning', text: 'Sign in first', action });
    assert.deepEqual(without, { kind: 'notice', id: 'e2', level: 'info', text: 'plain' });
  });

  it('an empty chunk, a block of no known type, or a title update without a title change nothing', () => {
    const before = play([
      { type: 'prompt', text: 'hi' },
      { type: 'turnEnded', stopReason: 'end_turn' },
    ]);
    for (const update of [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', data: 'x' } },
      { sessionUpdate: 'user_message_chunk', content: { type: 'hologram', data: 'x' } },
      { sessionUpdate: 'session_info_update', title: null },
      { sessionUpdate: 'session_info_update' },
    ]) {
      assert.equal(
        reduceThread(before, { type: 'update', id: 'x', update: update as never }),
        before,
        JSON.stringify(update),
      );
    }
    assert.equal(
      reduceThread(before, {
        type: 'update',
        id: 'x',
        update: { sessionUpdate: 'session_info_update', title: 'Fix the build' },
      }).title,
      'Fix the build',
    );
  });

  it("a chat the user renamed keeps that name: the agent's titles do not replace it, a blank name changes nothing", () => {
    const retitle = (title: string) =>
      ({ type: 'update', id: 'x', update: { sessionUpdate: 'session_info_update', title } }) as const;
    const named = reduceThread(play([{ type: 'prompt', text: 'hi' }]), {
      type: 'renamed',
      title: '  My\u202e  chat\n',
    });
    assert.deepEqual([named.title, named.titleByUser], ['My chat', true]);
    assert.equal(reduceThread(named, retitle('Fix the build')), named);
    assert.equal(reduceThread(named, { type: 'renamed', title: ' \u200b\t' }), named);
    assert.equal(reduceThread(named, { type: 'renamed', title: 'Again' }).title, 'Again');
  });

  it('chunks are grouped by their message id: another id starts another entry, a chunk without one joins', () => {
    const chunk = (sessionUpdate: string, text: string, messageId?: string) =>
      ({
        type: 'update',
        update: { sessionUpdate, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) },
      }) as Unnumbered;
    const thread = play([
      { type: 'prompt', text: 'hi' },
      chunk('agent_thought_chunk', 'Plan A. ', 't1'),
      chunk('agent_thought_chunk', 'Plan B.', 't2'),
      chunk('agent_message_chunk', 'One, ', 'm1'),
      chunk('agent_message_chunk', 'still one.', 'm1'),
      chunk('agent_message_chunk', ' Two', 'm2'),
      chunk('agent_message_chunk', ', no id'),
      chunk('agent_message_chunk', ' Three', 'x'.repeat(201)),
    ]);
    const shown = thread.entries
      .slice(1)
      .map((e) => [e.kind, 'text' in e ? e.text : '', 'messageId' in e ? e.messageId : undefined]);
    assert.deepEqual(shown, [
      ['thought', 'Plan A. ', 't1'],
      ['thought', 'Plan B.', 't2'],
      ['assistant', 'One, still one.', 'm1'],
      // An id too long to keep is no id: the chunk joins.
      ['assistant', ' Two, no id Three', 'm2'],
    ]);
  });

  it('records what a chunk appended, so the view posts only the new piece', () => {
    const one = play([
      { type: 'update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } } },
    ]);
    const two = reduceThread(one, {
      type: 'update',
      id: 'x',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ', world' } },
    });
    assert.equal(grownSince(one.entries[0], two.entries[0]), ', world');
  });

  it('forgets the versions behind one posted, and goes on from it', () => {
    const chunk = (text: string): ThreadAction => ({
      type: 'update',
      id: 'x',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    });
    const one = play([{ type: 'prompt', text: 'go' }, chunk('a')] as Unnumbered[]);
    const two = reduceThread(reduceThread(one, chunk('b')), chunk('c'));
    const three = reduceThread(two, chunk('d'));
    assert.equal(grownSince(one.entries[1], two.entries[1]), 'bc');
    // Posted: nothing leads back from it any more (so its older versions can go).
    assert.equal(grownSince(one.entries[1], two.entries[1]), undefined);
    assert.equal(grownSince(two.entries[1], three.entries[1]), 'd');
  });

  it('a tool call sent again replaces the call and keeps its entry; of what it leaves out, only what the card showed (locations, diffs, input) stays', () => {
    const thread = play([
      tool('a', 'in_progress', { kind: 'edit', locations: [{ path: '/w/a.ts' }] }),
      tool('a', 'completed'),
    ]);
    assert.equal(thread.entries.length, 1);
    const entry = thread.entries[0];
    assert.ok(entry.kind === 'tool');
    assert.equal(entry.id, 'e1');
    assert.equal(entry.status, 'completed');
    assert.equal(entry.toolKind, 'other');
    assert.deepEqual(entry.locations, [{ path: '/w/a.ts' }]);
  });

  it('a turn that ends cancels a call left pending alone, or running alone', () => {
    for (const status of ['pending', 'in_progress']) {
      const thread = play([
        { type: 'prompt', text: 'go' },
        tool('a', status),
        { type: 'turnEnded', stopReason: 'end_turn' },
      ]);
      assert.deepEqual(statuses(thread), ['a:cancelled'], status);
    }
  });

  it('a turn that ends keeps its plan as an entry and starts the next with none', () => {
    const thread = play([
      { type: 'prompt', text: 'go' },
      {
        type: 'update',
        update: { sessionUpdate: 'plan', entries: [{ content: 'Read', priority: 'high', status: 'completed' }] },
      },
      { type: 'turnEnded', stopReason: 'end_turn' },
    ]);
    assert.deepEqual(thread.plan, []);
    assert.deepEqual(thread.entries.at(-1), {
      kind: 'plan',
      id: 'e3:plan',
      entries: [{ content: 'Read', priority: 'high', status: 'completed' }],
    });
  });
});

describe('thread reducer: replayed attachments', () => {
  const chunk = (content: object): Unnumbered => ({
    type: 'update',
    update: { sessionUpdate: 'user_message_chunk', content } as never,
  });
  const labels = (thread: Thread) =>
    thread.entries.map((e) =>
      e.kind === 'user' ? (e.attachments ?? []).map((a) => `${a.icon}:${a.label}`) : [e.kind],
    );
  const chip = (content: object) => labels(play([chunk(content)]))[0]?.[0];

  it('names each kind of block', () => {
    assert.equal(chip({ type: 'audio', mimeType: 'audio/wav', data: '' }), 'file:Audio (audio/wav)');
    assert.equal(chip({ type: 'resource_link', uri: 'file:///w/c.md', name: 'c.md', title: 'Notes' }), 'file:Notes');
    assert.equal(chip({ type: 'resource_link', uri: 'file:///w/c.md', name: ' \n\t ' }), 'file:attachment');
    assert.equal(
      chip({ type: 'resource_link', uri: 'file:///w/c.md', name: 'n'.repeat(300) }),
      `file:${'n'.repeat(200)}`,
    );
  });

  it('names a resource by the last part of its URI, decoded when it can be, a selection only by an exact line range', () => {
    const cases: [string, string][] = [
      ['file:///w/src/a.ts#L10-L250', 'selection:a.ts:L10-L250'],
      ['file:///w/src/a.ts#L10-L250x', 'file:a.ts'],
      ['file:///w/src/a.ts#L3-L9#L1-L2', 'selection:a.ts:L1-L2'],
      ['file:///w/src/dir/', 'file:dir'],
      ['file:///w/my%20file.ts', 'file:my file.ts'],
      ['file:///w/100%.ts', 'file:100%.ts'],
      ['file:///w/x.ts#note\nmore', 'file:x.ts#note more'],
    ];
    for (const [uri, expected] of cases) {
      assert.equal(chip({ type: 'resource', resource: { uri, text: '' } }), expected, uri);
    }
  });

  it('puts at most 100 chips on one message, and none on a message that ended a turn', () => {
    const image = chunk({ type: 'image', mimeType: 'image/png', data: '' });
    const many = play([chunk({ type: 'text', text: 'look' }), ...Array.from({ length: 101 }, () => image)]);
    assert.deepEqual(
      labels(many).map((l) => l.length),
      [100, 1],
    );
    const sealed = play([chunk({ type: 'text', text: 'look' }), { type: 'turnEnded', stopReason: 'end_turn' }, image]);
    assert.deepEqual(labels(sealed), [[], ['image:Image (image/png)']]);
  });
});

describe('thread reducer: calls to the editor server', () => {
  const call = (n: number): Unnumbered => ({
    type: 'editorCall',
    call: { tool: 'references', about: `references at src/a.ts:${n}:1: 2`, path: '/w/src/a.ts', line: n },
  });

  it('lists the first 50 of a turn and counts the rest, after whatever the turn ended with', () => {
    const calls = Array.from({ length: 1_000 }, (_, i) => call(i + 1));
    const thread = play([{ type: 'prompt', text: 'hi' }, ...calls, { type: 'turnEnded', stopReason: 'cancelled' }]);
    assert.deepEqual(
      thread.entries.map((e) => e.kind),
      ['user', 'editorCalls', 'notice'],
    );
    const entry = thread.entries[1];
    assert.ok(entry.kind === 'editorCalls');
    assert.equal(entry.calls.length, 50);
    assert.equal(entry.calls[49].line, 50);
    assert.equal(entry.more, 950);
    assert.equal(entrySchema.safeParse(entry).success, true);
    assert.equal(thread.editorCalls, undefined);
  });

  it("shows nothing of a turn that asked nothing, and keeps a failed turn's calls", () => {
    const quiet = play([
      { type: 'prompt', text: 'hi' },
      { type: 'turnEnded', stopReason: 'end_turn' },
    ]);
    assert.ok(!quiet.entries.some((e) => e.kind === 'editorCalls'));
    const failed = play([{ type: 'prompt', text: 'hi' }, call(1), { type: 'turnFailed', message: 'gone' }]);
    assert.deepEqual(
      failed.entries.map((e) => e.kind),
      ['user', 'editorCalls', 'notice'],
    );
  });
});
