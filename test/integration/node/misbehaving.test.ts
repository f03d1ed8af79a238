/**
 * Node host: an agent that misbehaves in every way the protocol allows and
 * some it does not. Each time the chat shows what is valid, ignores or
 * reports the rest, and answers the next prompt.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { pidsGone, processes } from './processes';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { MAX_INPUT_CHARS } from '../../../src/shared/thread/toolCalls';

const MiB = 1024 * 1024;
const update = (sessionId: string, body: object) => ({
  rawMessage: { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: body } },
});
/** An agent_message_chunk's JSON line up to the start of its text. */
const HEAD =
  '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sessionId}","update":' +
  '{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"';
const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

const scenario = {
  turns: [
    {
      match: 'flood',
      steps: [
        { stream: { repeat: 'a', chunks: 20_000, intervalMs: 0 } },
        { toolCallFlood: { count: 100, contentSize: MiB } },
        { text: 'flood over' },
      ],
    },
    {
      match: 'bytes',
      steps: [
        // Invalid UTF-8 inside a message's text, then a line that is nothing but bytes.
        { rawBytes: { parts: [`${HEAD}bad:+`, { hex: 'c328ff' }, '+"}}}}'] } },
        { rawBytes: { parts: [{ hex: 'fffe00c0af' }] } },
        { text: ' bytes over' },
      ],
    },
    {
      match: 'strangers',
      steps: [
        { rawMessage: { jsonrpc: '2.0', id: 'unknown-method-1', method: 'acme/do_something', params: {} } },
        { rawMessage: { jsonrpc: '2.0', id: 'unknown-method-2', method: '_acme/extension', params: { x: 1 } } },
        update('no-such-session', chunk('GHOST TEXT')),
        { update: { sessionUpdate: 'tool_call_update', toolCallId: 'never-started', status: 'completed' } },
        { rawMessage: { jsonrpc: '2.0', id: 424242, result: { stopReason: 'end_turn' } } },
        {
          rawMessage: {
            jsonrpc: '2.0',
            id: 'nobody-asked',
            error: { code: -32000, message: 'an error nobody asked for' },
          },
        },
        { text: 'strangers over' },
      ],
    },
    {
      match: 'other session',
      steps: [
        { readFile: { sessionId: 'someone-else', path: '${cwd}/other-session.txt' } },
        { writeFile: { sessionId: 'someone-else', path: '${cwd}/other-session.txt', content: 'x' } },
        { permission: { sessionId: 'someone-else' } },
        { text: 'other over' },
      ],
    },
    {
      match: 'deaf',
      steps: [
        { text: 'Not listening any more.' },
        { stopReading: true },
        { stream: { repeat: '.', chunks: 5, intervalMs: 50 } },
        { hang: true },
      ],
    },
    {
      match: 'die',
      steps: [
        { text: 'Dying.' },
        { rawBytes: { parts: [`${HEAD}HALF A MESSAGE`], newline: false } },
        { crash: { exitCode: 5, stderr: 'died in the middle of a message' } },
      ],
    },
    { match: '', steps: [{ text: 'still here' }] },
  ],
};

describe('a misbehaving agent', function () {
  this.timeout(90_000);
  let chat: Chat;

  before(async () => {
    chat = await chatWithAgents({ bad: scenarioAgent('Misbehaving Agent', scenario) }, 'bad');
  });

  async function answersNext(): Promise<void> {
    await chat.composer.send('and now?');
    await waitFor(chat, 'the next reply', () => chat.status.turn === 'idle' && lastReply(chat) === 'still here');
  }

  it('a flood of 20,000 chunks and 100 tool calls of 1 MiB each: all shown, tool text capped, the chat goes on', async () => {
    await chat.composer.send('flood');
    await waitFor(chat, 'the flood to end', () => chat.status.turn === 'idle', 60_000);
    const entries = chat.thread.entries;
    const answer = entries.find((e) => e.kind === 'assistant' && e.text.startsWith('aaaa'));
    assert.equal(answer?.kind === 'assistant' ? answer.text.length : 0, 20_000);
    const tools = entries.filter((e) => e.kind === 'tool');
    assert.equal(tools.length, 100);
    for (const tool of tools) {
      const content = tool.kind === 'tool' ? tool.content : [];
      const text = content.map((c) => (c.type === 'content' && c.block.type === 'text' ? c.block.text : '')).join('');
      assert.ok(text.length <= MAX_INPUT_CHARS + 100, `tool text kept: ${text.length} characters`);
    }
    assert.equal(lastReply(chat), 'flood over');
    await answersNext();
  });

  it('invalid UTF-8: replaced in a message, a line of raw bytes reported as stray output', async () => {
    await chat.composer.send('bytes');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    assert.match(transcript(chat), /bad:\+\uFFFD\(\uFFFD\+/);
    assert.match(transcript(chat), /> warning: The agent wrote a line that is not ACP to its output, ignored: /);
    assert.ok(transcript(chat).includes(' bytes over'));
    await answersNext();
  });

  it('unknown methods, updates for unknown sessions and tool calls, answers nobody asked for: ignored', async () => {
    await chat.composer.send('strangers');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    assert.ok(!transcript(chat).includes('GHOST TEXT'), 'an update for another session is not shown');
    assert.equal(lastReply(chat), 'strangers over');
    assert.equal(chat.status.connection, 'connected');
    await answersNext();
  });

  it('file and permission requests naming a session this connection did not open are refused', async () => {
    await chat.composer.send('other session');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    const reply = lastReply(chat);
    assert.equal((reply.match(/\[error: [^\]]*No session with this id on this connection\./g) ?? []).length, 2, reply);
    assert.ok(reply.includes('[permission: cancelled]'), reply);
    assert.ok(
      !fs.existsSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'other-session.txt')),
      'nothing written',
    );
    assert.equal(chat.status.permissions.length, 0, 'no prompt shown');
    await answersNext();
  });

  it('an agent that stops reading its input: Stop ends the turn, Restart replaces the agent, which is ended', async () => {
    void chat.composer.send('deaf');
    await waitFor(chat, 'the agent to stop listening', () => lastReply(chat).startsWith('Not listening any more.'));
    const stoppedAt = Date.now();
    await vscode.commands.executeCommand('vscode-acp.stop');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle', 5_000);
    assert.ok(Date.now() - stoppedAt <= 2_500, 'ended within 2 s of Stop');
    const deaf = processes('dist/test/agent.js .*stopReading').split('\n').filter(Boolean).map(Number);
    assert.ok(deaf.length > 0, 'the agent runs');
    await vscode.commands.executeCommand('vscode-acp.restart');
    await waitFor(chat, 'connected again', () => chat.status.connection === 'connected');
    // It also ignores its stdin closing: only the signal to its process group ends it.
    const left = await pidsGone(deaf, 5_000);
    assert.equal(left.length, 0, `the old agent is gone (still running: ${left.join(', ')})`);
    await answersNext();
  });

  it('an agent that exits in the middle of a message: its exit is reported, the half message is not shown', async () => {
    const before = transcript(chat).length;
    await chat.composer.send('die');
    await waitFor(
      chat,
      'the agent to be gone',
      () => chat.status.connection === 'failed' && chat.status.turn === 'idle',
    );
    const turn = transcript(chat).slice(before);
    assert.match(turn, /Dying\.\n\n> error: The agent stopped: .*exited with code 5\./);
    assert.match(turn, /died in the middle of a message/);
    // Its unfinished last line is reported as what it is, not shown as a message.
    const shown = turn
      .split('\n')
      .filter((line) => !line.startsWith('> warning: The agent wrote a line that is not ACP'))
      .join('\n');
    assert.ok(!shown.includes('HALF A MESSAGE'), `the half message is not shown:\n${turn}`);
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected again', () => chat.status.connection === 'connected');
    await answersNext();
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });
});
