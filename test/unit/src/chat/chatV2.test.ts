/**
 * ACP v2 (`vscode-acp.protocol.v2`) through the chat core, against the scripted agent in v2 mode: the version
 * negotiated (and v1 kept with an agent that speaks only v1), a whole turn (its echo not shown twice, tool calls
 * from upserts, a permission, an edit as a structured change, the turn ending at idle), updates after the turn,
 * errors and Stop, a reconnect and a load that replays, and hostile v2 shapes (null resets, content chunks, message
 * upserts, file changes).
 */
import * as assert from 'node:assert/strict';
import { scriptedHost, shown, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

const EDIT_TURN = {
  match: 'edit',
  steps: [
    { reportCapabilities: true },
    { toolCall: { toolCallId: 't1', title: 'Edit f.ts', kind: 'edit', status: 'pending' } },
    {
      permission: {
        toolCall: { toolCallId: 't1', title: 'Edit f.ts' },
        options: [
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      },
    },
    {
      toolCallUpdate: {
        toolCallId: 't1',
        status: 'completed',
        content: [{ type: 'diff', path: '/scripted/workspace/f.ts', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\n' }],
      },
    },
    { text: 'Edited.' },
  ],
};

describe('ACP v2 through the chat core (scripted agent, no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  it('an agent that offers v2 is spoken to in v2: a turn with a permission ends at idle, the prompt shown once', async () => {
    host = scriptedHost({ protocol: 'auto', turns: [EDIT_TURN] }, { askV2: true });
    const chat = await host.connectedChat();
    const turn = chat.composer.send('edit f.ts');
    await until('the permission request', () => chatStatus(chat).permissions.length === 1);
    chat.permissions.answer(chatStatus(chat).permissions[0]!.requestId, 'allow_once');
    await turn;
    const text = shown(chat);
    // What the agent was told about the client is v2's: no client fs or terminals, elicitation.
    assert.match(text, /\[capabilities: \{"elicitation":/);
    assert.doesNotMatch(text, /"fs"/);
    assert.match(text, /\[permission: allow\]/);
    assert.match(text, /Edited\./);
    assert.equal(text.match(/edit f\.ts/g)?.length, 1, `the prompt once (v2 echoes it):\n${text}`);
    const tools = chat.thread.entries.filter((e) => e.kind === 'tool');
    assert.deepEqual(
      tools.map((t) => t.kind === 'tool' && [t.title, t.status]),
      [['Edit f.ts', 'completed']],
    );
    // The edit came as v2's structured change with a git patch: the file, what happened to it, its hunk.
    assert.deepEqual(tools[0]?.kind === 'tool' && tools[0].content, [
      {
        type: 'diff',
        path: '/scripted/workspace/f.ts',
        oldText: '',
        newText: '',
        change: { operation: 'modify' },
        hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' a', '-b', '+B', ' c'] }],
      },
    ]);
    assert.equal(chat.thread.turn, 'idle');
  });

  it('updates after the turn ended (idle) are shown as they come, a message of their own', async () => {
    host = scriptedHost(
      {
        protocol: 'v2',
        turns: [
          { match: '', steps: [{ text: 'Answer.' }], after: [{ sleep: 50 }, { text: 'A note after the turn.' }] },
        ],
      },
      { askV2: true },
    );
    const chat = await host.connectedChat();
    await chat.composer.send('go');
    assert.equal(chat.thread.turn, 'idle');
    await until('the update after the turn', () => /A note after the turn\./.test(shown(chat)));
    const answers = chat.thread.entries
      .filter((e) => e.kind === 'assistant')
      .map((e) => e.kind === 'assistant' && e.text);
    assert.deepEqual(answers, ['Answer.', 'A note after the turn.']);
    assert.equal(chat.thread.turn, 'idle');
  });

  it('an agent that speaks only v1 is asked again in v1 on the same process, and works as before', async () => {
    const logLines: string[] = [];
    host = scriptedHost({ protocol: 'v1', turns: [EDIT_TURN] }, { askV2: true, logLines });
    const chat = await host.connectedChat();
    const turn = chat.composer.send('edit f.ts');
    await until('the permission request', () => chatStatus(chat).permissions.length === 1);
    chat.permissions.answer(chatStatus(chat).permissions[0]!.requestId, 'allow_once');
    await turn;
    assert.equal(host.instances.length, 1, 'no second process');
    assert.match(shown(chat), /\[capabilities: \{"fs":/);
    assert.ok(
      logLines.some((l) => /answered in ACP v1/.test(l)),
      logLines.join('\n'),
    );
  });

  it('without the setting an agent that offers v2 is spoken to in v1', async () => {
    host = scriptedHost({ protocol: 'auto', turns: [{ match: '', steps: [{ reportCapabilities: true }] }] });
    const chat = await host.connectedChat();
    await chat.composer.send('hi');
    assert.match(shown(chat), /\[capabilities: \{"fs":/);
  });

  it('a turn that ends in error shows it; Stop ends a running turn', async () => {
    host = scriptedHost(
      {
        protocol: 'v2',
        turns: [
          {
            match: 'fail',
            steps: [{ text: 'Starting. ' }, { error: { code: -32603, message: 'the model is overloaded' } }],
          },
          { match: 'wait', steps: [{ text: 'Waiting.' }, { waitForCancel: true }] },
        ],
      },
      { askV2: true },
    );
    const chat = await host.connectedChat();
    await chat.composer.send('fail');
    assert.equal(chat.thread.turn, 'idle');
    assert.match(shown(chat), /the model is overloaded/);
    const waiting = chat.composer.send('wait');
    await until('the turn to run', () => /Waiting\./.test(shown(chat)));
    chat.stop();
    await waiting;
    assert.equal(chat.thread.turn, 'idle');
    assert.match(shown(chat), /Waiting\.[\s\S]*(Stopped|cancelled)/i);
  });

  it('a dropped connection continues the session (v2: resume); opened from the history it loads (resume, replay)', async () => {
    host = scriptedHost(
      {
        protocol: 'v2',
        turns: [
          { match: 'recall', steps: [{ reportHistory: true }] },
          { match: '', steps: [{ text: 'noted' }] },
        ],
      },
      { askV2: true, keepsSessions: true },
    );
    const chat = await host.connectedChat();
    await chat.composer.send('remember this');
    const sessionId = chat.sessionRef?.sessionId;
    host.instances[0].drop();
    await until('the chat to reconnect', () => chat.connection === 'connected' && host!.instances.length === 2);
    assert.equal(chat.sessionRef?.sessionId, sessionId, 'the same session, continued');
    // Opened from the history with an empty transcript: loaded, the agent's replay is the transcript.
    const entry = { key: 'k', title: 'remember this', createdAt: 1, updatedAt: 1, ...chat.sessionRef! };
    await host.chats.close(chat.id);
    const opened = host.chats.openSaved(entry, { version: 1, entries: [], terminals: {} }, 'load');
    assert.equal(await opened.connect(), true);
    assert.match(shown(opened), /The session continues \(loaded by the agent\)\./);
    assert.match(shown(opened), /## User\n\nremember this\n\n## Assistant\n\nnoted/);
    await opened.composer.send('recall');
    assert.match(shown(opened), /remember this \| recall\]/);
  });

  it('v2 shapes: a null resets a tool field, content chunks add up, a message sent again replaces itself', async () => {
    host = scriptedHost(
      {
        protocol: 'v2',
        turns: [
          {
            match: '',
            steps: [
              {
                update: {
                  sessionUpdate: 'tool_call_update',
                  toolCallId: 'x',
                  title: 'Run it',
                  kind: 'execute',
                  status: 'in_progress',
                },
              },
              {
                update: {
                  sessionUpdate: 'tool_call_content_chunk',
                  toolCallId: 'x',
                  content: { type: 'content', content: { type: 'text', text: 'first part' } },
                },
              },
              {
                update: {
                  sessionUpdate: 'tool_call_content_chunk',
                  toolCallId: 'x',
                  content: { type: 'content', content: { type: 'text', text: 'second part' } },
                },
              },
              { update: { sessionUpdate: 'tool_call_update', toolCallId: 'x', kind: null, status: 'completed' } },
              {
                update: {
                  sessionUpdate: 'agent_message',
                  messageId: 'm1',
                  content: [{ type: 'text', text: 'Draft answer.' }],
                },
              },
              {
                update: {
                  sessionUpdate: 'agent_message',
                  messageId: 'm1',
                  content: [{ type: 'text', text: 'Final answer.' }],
                },
              },
              { update: { sessionUpdate: 'tool_call_update', toolCallId: 7, title: 'hostile id' } },
              {
                update: {
                  sessionUpdate: 'tool_call_update',
                  toolCallId: 'files',
                  title: 'Hostile changes',
                  content: [
                    {
                      type: 'diff',
                      changes: [
                        { operation: 'move', oldPath: '/w/a', path: '/w/b' },
                        { operation: 'delete', path: 42 },
                        { operation: '_x'.repeat(100), path: '/w/c' },
                        'not a change',
                      ],
                      patch: { format: 'git_patch', text: '@@ not a patch @@\n+?' },
                    },
                    { type: 'diff', changes: 'none' },
                  ],
                },
              },
              { update: { sessionUpdate: 'agent_message', messageId: null, content: 'not a list' } },
            ],
          },
        ],
      },
      { askV2: true },
    );
    const chat = await host.connectedChat();
    await chat.composer.send('go');
    const tool = chat.thread.entries.find((e) => e.kind === 'tool');
    assert.ok(tool?.kind === 'tool');
    assert.equal(tool.title, 'Run it');
    assert.equal(tool.toolKind, 'other', 'kind: null resets it');
    assert.equal(tool.status, 'completed');
    const text = shown(chat);
    assert.match(text, /first part[\s\S]*second part/);
    assert.doesNotMatch(text, /hostile id/);
    const files = chat.thread.entries.find((e) => e.kind === 'tool' && e.toolCallId === 'files');
    assert.deepEqual(
      files?.kind === 'tool' && files.content.map((c) => c.type === 'diff' && [c.path, c.change, c.hunks]),
      [
        ['/w/b', { operation: 'move', oldPath: '/w/a' }, undefined],
        ['/w/c', { operation: 'other' }, undefined],
      ],
      'an operation not as one names it is a change all the same; no path, no change; a patch that is not one, no hunks',
    );
    assert.match(text, /Final answer\./);
    assert.doesNotMatch(text, /Draft answer/, 'the message sent again replaced the first');
  });
});
