/**
 * The chat core without VS Code: what the scripted agent sends (tool calls,
 * a plan, an error, unknown update kinds, a title, a refusal it is given),
 * as the chat shows it; and a host with no agent at all.
 */
import * as assert from 'node:assert/strict';
import { scriptedHost, shown, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

describe('what the scripted agent sends, as the chat core shows it (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  const withTurn = (steps: object[], extra: object = {}) =>
    scriptedHost({
      ...extra,
      turns: [
        { match: '^recall', steps: [{ reportHistory: true }] },
        { match: '', steps },
      ],
    });

  it('no agent to talk to: Connect says so, and nothing is started', async () => {
    host = scriptedHost({ turns: [] }, { installed: false });
    const chat = await host.newChat();
    assert.equal(await chat.connect(), false);
    assert.deepEqual(host.errors, [
      'No ACP agent is available. Install one, or add one in the vscode-acp.agents setting.',
    ]);
    assert.equal(host.instances.length, 0);
  });

  it('a tool call and its update are one card, in its final state', async () => {
    host = withTurn([
      { toolCall: { toolCallId: 't1', title: 'Read a.txt', kind: 'read', status: 'in_progress' } },
      { toolCallUpdate: { toolCallId: 't1', status: 'completed' } },
      { text: 'Read it.' },
    ]);
    const chat = await host.connectedChat();
    await chat.composer.send('read');
    const tools = chat.thread.entries.filter((e) => e.kind === 'tool');
    assert.equal(tools.length, 1);
    assert.deepEqual(
      [tools[0].kind === 'tool' && tools[0].title, tools[0].kind === 'tool' && tools[0].status],
      ['Read a.txt', 'completed'],
    );
  });

  it("the agent's plan is shown while its turn runs, and goes when the turn ends", async () => {
    host = withTurn([
      {
        plan: [
          { content: 'Look around', priority: 'high', status: 'completed' },
          { content: 'Fix it', priority: 'medium', status: 'pending' },
        ],
      },
      { sleep: 200 },
      { text: 'done' },
    ]);
    const chat = await host.connectedChat();
    const turn = chat.composer.send('plan');
    const plan = () =>
      chatStatus(chat)
        .plan.map((p) => `${p.content}: ${p.status}`)
        .join(', ');
    await until('the plan', () => plan() === 'Look around: completed, Fix it: pending');
    await turn;
    assert.equal(plan(), '');
  });

  it('a prompt the agent answers with an error ends the turn with its message', async () => {
    host = withTurn([{ text: 'Starting. ' }, { error: { code: -32603, message: 'the model is overloaded' } }]);
    const chat = await host.connectedChat();
    await chat.composer.send('try');
    assert.equal(chat.thread.turn, 'idle');
    assert.match(shown(chat), /the model is overloaded/);
  });

  it('updates of a kind the extension does not know are left out, and said once', async () => {
    host = withTurn([
      { update: { sessionUpdate: 'hologram_update', beam: 1 } },
      { update: { sessionUpdate: 'hologram_update', beam: 2 } },
      { text: 'Known text.' },
    ]);
    const chat = await host.connectedChat();
    await chat.composer.send('new kinds');
    await chat.composer.send('again');
    const text = shown(chat);
    assert.match(text, /Known text\./);
    assert.equal(text.split('does not know').length - 1, 1, text);
  });

  it("the agent's title for the session is the chat's title", async () => {
    host = withTurn([
      { update: { sessionUpdate: 'session_info_update', title: 'Refactor the parser' } },
      { text: 'ok' },
    ]);
    const chat = await host.connectedChat();
    await chat.composer.send('please refactor');
    assert.equal(chat.title, 'Refactor the parser');
  });

  it('a permission refused is refused to the agent', async () => {
    host = withTurn([{ permission: {}, expectOutcome: 'reject_once' }]);
    const chat = await host.connectedChat();
    const turn = chat.composer.send('ask');
    await until('the permission prompt', () => chat.permissions.prompts.length === 1);
    const [prompt] = chat.permissions.prompts;
    chat.permissions.answer(prompt.requestId, 'reject');
    await turn;
    assert.match(shown(chat), /\[permission: reject_once\]/);
    assert.doesNotMatch(shown(chat), /unexpected permission outcome/);
  });

  /** A v1 write of a whole file, as Claude Code's adapter asks it: a diff with no old text. */
  const writeTurn = (path: string) => ({
    turns: [
      {
        match: '',
        steps: [
          {
            permission: {
              toolCall: {
                toolCallId: 'w1',
                title: 'Write notes.md',
                kind: 'edit',
                content: [{ type: 'diff', path, oldText: null, newText: 'one\nTWO\nthree\n' }],
              },
            },
          },
        ],
      },
    ],
  });
  const askedDiff = async (chat: Awaited<ReturnType<ScriptedHost['connectedChat']>>) => {
    void chat.composer.send('write');
    await until('the permission prompt', () => chat.permissions.prompts.length === 1);
    return chat.permissions.prompts[0]!.tool.content[0];
  };

  it('an edit sent without its old text is shown against the file as it is now, not as a new file', async () => {
    const path = '/scripted/workspace/notes.md';
    host = scriptedHost(writeTurn(path), { trusted: true, fileRead: true, files: { [path]: 'one\ntwo\nthree\n' } });
    assert.deepEqual(await askedDiff(await host.connectedChat()), {
      type: 'diff',
      path,
      oldText: 'one\ntwo\nthree\n',
      newText: 'one\nTWO\nthree\n',
      oldFrom: 'disk',
    });
  });

  it('an edit without its old text: a new file where there is none, "unknown" where files are not read here', async () => {
    const path = '/scripted/workspace/new.md';
    host = scriptedHost(writeTurn(path), { trusted: true, fileRead: true, files: {} });
    const fresh = await askedDiff(await host.connectedChat());
    assert.deepEqual(fresh, { type: 'diff', path, oldText: null, newText: 'one\nTWO\nthree\n' });
    host.dispose();
    // Restricted Mode: the host reads no file for the agent, so it cannot tell.
    host = scriptedHost(writeTurn('/scripted/workspace/notes.md'));
    const unread = await askedDiff(await host.connectedChat());
    assert.equal(unread?.type === 'diff' && unread.oldFrom, 'unknown');
    host.dispose();
    // Outside the agent's folders: not read, so not known either.
    host = scriptedHost(writeTurn('/etc/passwd'), { trusted: true, fileRead: true, files: { '/etc/passwd': 'root' } });
    const outside = await askedDiff(await host.connectedChat());
    assert.equal(outside?.type === 'diff' && outside.oldFrom, 'unknown');
    assert.equal(outside?.type === 'diff' && outside.oldText, null);
  });

  it('an edit without its old text: the card shows what the prompt showed, after the agent sends the diff again', async () => {
    const path = '/scripted/workspace/notes.md';
    const sent = { type: 'diff', path, oldText: null, newText: 'one\nTWO\nthree\n' };
    const call = { toolCallId: 'w1', title: 'Write notes.md', kind: 'edit', content: [sent] };
    // Claude Code's order: the call, the permission, then the call's end with its content again.
    const steps = [
      { toolCall: call },
      { permission: { toolCall: { toolCallId: 'w1' } }, expectOutcome: 'allow_once' },
      { toolCallUpdate: { toolCallId: 'w1', status: 'completed', content: [sent] } },
    ];
    host = scriptedHost(
      { turns: [{ match: '', steps }] },
      { trusted: true, fileRead: true, files: { [path]: 'one\ntwo\nthree\n' } },
    );
    const chat = await host.connectedChat();
    const turn = chat.composer.send('write');
    await until('the permission prompt', () => chat.permissions.prompts.length === 1);
    const card = () => chat.thread.entries.find((e) => e.kind === 'tool');
    const asked = { type: 'diff', path, oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n', oldFrom: 'disk' };
    assert.deepEqual(chat.permissions.prompts[0]!.tool.content, [asked]);
    assert.deepEqual(card()?.kind === 'tool' && card()!.content, [asked], 'the card while the prompt waits');
    chat.permissions.answer(chat.permissions.prompts[0]!.requestId, 'allow_once');
    await turn;
    const done = card();
    assert.equal(done?.kind === 'tool' && done.status, 'completed');
    assert.deepEqual(done?.kind === 'tool' && done.content, [asked], 'the card after the call ended');
  });

  it('a permission asked before its tool call is announced (Kilo Code): the card keeps the diff and input approved', async () => {
    const diff = { type: 'diff', path: '/scripted/workspace/a.md', oldText: 'a\n', newText: 'b\n' };
    host = withTurn([
      {
        permission: {
          toolCall: { toolCallId: 'k1', title: 'edit', kind: 'edit', content: [diff], rawInput: { filePath: 'a.md' } },
        },
        expectOutcome: 'allow_once',
      },
      { toolCall: { toolCallId: 'k1', title: 'a.md', kind: 'edit', status: 'completed' } },
    ]);
    const chat = await host.connectedChat();
    const turn = chat.composer.send('edit');
    await until('the permission prompt', () => chat.permissions.prompts.length === 1);
    chat.permissions.answer(chat.permissions.prompts[0]!.requestId, 'allow_once');
    await turn;
    const tools = chat.thread.entries.filter((e) => e.kind === 'tool');
    assert.equal(tools.length, 1, 'one card');
    const card = tools[0]!;
    assert.ok(card.kind === 'tool');
    assert.deepEqual(
      { title: card.title, status: card.status, content: card.content, input: card.input },
      { title: 'a.md', status: 'completed', content: [diff], input: '{\n  "filePath": "a.md"\n}' },
    );
  });

  it('Disconnect, then a prompt: the chat connects again and the agent continues the same session', async () => {
    host = scriptedHost(
      {
        agentCapabilities: { sessionCapabilities: { resume: {} } },
        turns: [
          { match: '^recall', steps: [{ reportHistory: true }] },
          { match: '', steps: [{ text: 'ok' }] },
        ],
      },
      // The agent's process ends with the chat's last session: its store keeps the session.
      { keepsSessions: true },
    );
    const chat = await host.connectedChat();
    await chat.composer.send('first');
    const sessionId = chat.sessionRef?.sessionId;
    await chat.disconnect();
    assert.equal(chat.connection, 'disconnected');
    await chat.composer.send('recall');
    assert.equal(chat.sessionRef?.sessionId, sessionId);
    assert.match(shown(chat), /The session continues \(resumed by the agent\)/);
    assert.match(shown(chat), /\[history of [^:]+: first \| recall\]/);
  });
});
