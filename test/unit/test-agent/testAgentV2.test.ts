/**
 * The scripted test agent on the ACP v2 draft (scenario `protocol`), driven over its real stdio by the SDK's own v2
 * client: the negotiation each setting gives, a whole turn as v2 says it (echo, running, chunks with ids, the tool
 * call as upserts with a structured diff, requires_action around a permission, idle with the stop reason), updates
 * after idle, errors and cancel as idle, no client fs, and a resume that replays.
 */
import * as assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import * as v2 from '@agentclientprotocol/sdk/experimental/v2';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';

const agentJs = path.resolve(__dirname, 'agent.js');

function spawnAgent(scenario: object): { child: ChildProcess; stream: v2.Stream } {
  const child = spawn(process.execPath, [agentJs, JSON.stringify(scenario)], { stdio: ['pipe', 'pipe', 'ignore'] });
  const stream = v2.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  return { child, stream };
}

interface V2Run {
  agent: v2.ClientConnection['agent'];
  connection: v2.ClientConnection;
  updates: v2.SessionUpdate[];
  /** Resolves at the next `idle` state update of a session, with it. */
  idle(): Promise<v2.SessionUpdate>;
  cwd: string;
}

function connectV2(stream: v2.Stream, permission: (r: v2.RequestPermissionRequest) => string): V2Run {
  const updates: v2.SessionUpdate[] = [];
  let waiter: ((u: v2.SessionUpdate) => void) | undefined;
  const connection = v2
    .client({ name: 'v2-test' })
    .onNotification('session/update', (c) => {
      updates.push(c.params.update);
      const u = c.params.update as { sessionUpdate: string; state?: string };
      if (u.sessionUpdate === 'state_update' && u.state === 'idle') waiter?.(c.params.update);
    })
    .onRequest('session/request_permission', (c) => ({
      outcome: { outcome: 'selected', optionId: permission(c.params) },
    }))
    .connect(stream);
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-agent-v2-'));
  return {
    agent: connection.agent,
    connection,
    updates,
    cwd,
    idle: () => new Promise((resolve) => (waiter = resolve)),
  };
}

const kinds = (updates: v2.SessionUpdate[]) =>
  updates.map((u) => {
    const x = u as { sessionUpdate: string; state?: string };
    return x.sessionUpdate === 'state_update' ? `state ${x.state}` : x.sessionUpdate;
  });

describe('the test agent on ACP v2', function () {
  this.timeout(20_000);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
  });

  function start(scenario: object, permission = (r: v2.RequestPermissionRequest) => r.options[0]!.optionId) {
    const { child, stream } = spawnAgent(scenario);
    children.push(child);
    return connectV2(stream, permission);
  }

  it('a turn: the echo before the answer, running, chunks with ids, tool upserts with a structured diff, idle', async () => {
    const file = '/work/x/f.ts';
    const run = start({
      protocol: 'auto',
      turns: [
        {
          match: 'edit',
          steps: [
            { thought: 'thinking' },
            { text: 'Editing.' },
            { toolCall: { toolCallId: 't1', title: 'Edit f.ts', kind: 'edit', status: 'pending' } },
            {
              permission: {
                toolCall: { toolCallId: 't1', title: 'Edit f.ts' },
                options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
              },
            },
            {
              toolCallUpdate: {
                toolCallId: 't1',
                status: 'completed',
                content: [{ type: 'diff', path: file, oldText: 'a\nb\n', newText: 'a\nc\n' }],
              },
            },
            { text: 'Done.' },
          ],
          after: [{ text: 'later' }],
        },
      ],
    });
    const init = await run.agent.request('initialize', { protocolVersion: 2, info: { name: 't', version: '1' } });
    assert.equal(init.protocolVersion, 2);
    assert.equal(init.info.name, 'test-agent');
    const { sessionId } = await run.agent.request('session/new', { cwd: run.cwd });
    const idle = run.idle();
    const { messageId } = await run.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'edit it' }],
    });
    assert.deepEqual(await idle, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
    // The echo first (sent before the answer, though the SDK's client may deliver it after), with the answer's id.
    assert.deepEqual(run.updates[0], {
      sessionUpdate: 'user_message',
      messageId,
      content: [{ type: 'text', text: 'edit it' }],
    });
    assert.deepEqual(kinds(run.updates), [
      'user_message',
      'state running',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call_update',
      'state requires_action',
      'state running',
      'agent_message_chunk',
      'tool_call_update',
      'agent_message_chunk',
      'state idle',
    ]);
    const chunks = run.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk') as { messageId: string }[];
    assert.deepEqual(new Set(chunks.map((c) => c.messageId)), new Set([`${sessionId}/a1`]));
    const done = run.updates.filter((u) => u.sessionUpdate === 'tool_call_update')[1] as v2.ToolCallUpdate;
    const diff = done.content![0] as { type: 'diff'; changes: unknown[]; patch: { format: string; text: string } };
    assert.deepEqual(diff.changes, [{ operation: 'modify', path: file, fileType: 'text' }]);
    assert.equal(diff.patch.format, 'git_patch');
    assert.match(diff.patch.text, /^diff --git \/work\/x\/f\.ts \/work\/x\/f\.ts\n--- \/work\/x\/f\.ts\n\+\+\+ /);
    assert.match(diff.patch.text, /\n-b\n\+c\n$/);
    // `after` steps come once idle: an update with no turn running.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(kinds(run.updates).at(-1), 'agent_message_chunk');
    run.connection.close();
  });

  it('a failed step ends the turn idle with the error; session/cancel ends it idle, cancelled', async () => {
    const run = start({
      protocol: 'v2',
      turns: [
        { match: 'fail', steps: [{ error: { code: -32000, message: 'Authentication required' } }] },
        { match: 'wait', steps: [{ waitForCancel: true }] },
        { match: 'read', steps: [{ readFile: { path: '/etc/hostname' } }] },
      ],
    });
    await run.agent.request('initialize', { protocolVersion: 2, info: { name: 't', version: '1' } });
    const { sessionId } = await run.agent.request('session/new', { cwd: run.cwd });
    const prompt = (text: string) =>
      run.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    let idle = run.idle();
    await prompt('fail');
    assert.deepEqual(await idle, {
      sessionUpdate: 'state_update',
      state: 'idle',
      stopReason: 'error',
      error: { code: -32000, message: 'Authentication required' },
    });
    idle = run.idle();
    await prompt('wait');
    await run.agent.notify('session/cancel', { sessionId });
    assert.equal(((await idle) as { stopReason?: string }).stopReason, 'cancelled');
    idle = run.idle();
    await prompt('read');
    await idle;
    const texts = run.updates
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u as { content: { text?: string } }).content.text ?? '');
    assert.match(texts.at(-1)!, /^\[error: .*fs\/read_text_file \(not on ACP v2/);
    run.connection.close();
  });

  it('resume with replay from the start: each prompt one user message, each turn one agent message, then the state', async () => {
    const run = start({ protocol: 'v2', turns: [{ match: '', steps: [{ text: 'one ' }, { text: 'two' }] }] });
    await run.agent.request('initialize', { protocolVersion: 2, info: { name: 't', version: '1' } });
    const { sessionId } = await run.agent.request('session/new', { cwd: run.cwd });
    const idle = run.idle();
    await run.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    await idle;
    run.updates.length = 0;
    await run.agent.request('session/resume', { sessionId, cwd: run.cwd, replayFrom: { type: 'start' } });
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(run.updates, [
      { sessionUpdate: 'user_message', messageId: `${sessionId}/u1`, content: [{ type: 'text', text: 'hi' }] },
      { sessionUpdate: 'agent_message_chunk', messageId: `${sessionId}/a1`, content: { type: 'text', text: 'one ' } },
      { sessionUpdate: 'agent_message_chunk', messageId: `${sessionId}/a1`, content: { type: 'text', text: 'two' } },
      { sessionUpdate: 'state_update', state: 'idle' },
    ]);
    run.connection.close();
  });

  it('negotiation: "v1" answers version 1 to a v2 client (which then closes); "auto" serves a v1 client v1', async () => {
    const v1Only = start({ protocol: 'v1' });
    await assert.rejects(
      v1Only.agent.request('initialize', { protocolVersion: 2, info: { name: 't', version: '1' } }),
      /"info"/,
    );
    await v1Only.connection.closed;

    const { child, stream } = spawnAgent({ protocol: 'auto' });
    children.push(child);
    const v1 = acp.client({ name: 'v1-test' }).connect(stream);
    const init = await v1.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.name, 'test-agent');
  });
});
