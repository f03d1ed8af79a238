/**
 * The walking-skeleton flows, run inside a real VS Code in both extension
 * hosts against the scripted test agent (spawned directly by the Node host,
 * reached through the real bridge from the web worker host).
 */
import * as assert from './assert';
import * as vscode from 'vscode';
import { transcript, waitFor, type Chat } from './chatWaits';
import { chatWithTestAgent, hostSetup } from './host';

const lastEntry = (chat: Chat) => chat.thread.entries[chat.thread.entries.length - 1];

describe('chat with a real ACP agent', function () {
  this.timeout(60_000);
  let chat: Chat;

  before(async () => {
    chat = await chatWithTestAgent();
  });

  it('offers the configured agent in the picker', () => {
    const agent = chat.status.agents.find((a) => a.id === hostSetup.agentId);
    assert.ok(agent, JSON.stringify(chat.status.agents));
    assert.equal(agent.available, true);
    assert.equal(chat.status.selectedAgentId, hostSetup.agentId);
  });

  it('connects and shows the agent title and version', async () => {
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected');
    assert.equal(chat.status.agentLabel, 'Test Agent 1.2.3');
  });

  it('advertises exactly the capabilities this host has', async () => {
    await chat.composer.send('which capabilities');
    const text = transcript(chat);
    assert.ok(text.endsWith(`[capabilities: ${hostSetup.expectedCapabilities}]\n`), text);
    await vscode.commands.executeCommand('vscode-acp.newChat');
  });

  it('a reply streams into the thread chunk by chunk, complete when the turn ends', async () => {
    const seen = new Set<string>();
    let atTurnEnd: string | undefined;
    const sub = chat.onDidChange(() => {
      const last = lastEntry(chat);
      if (last?.kind === 'assistant') seen.add(last.text);
      // The last chunks can arrive after the prompt response: the turn must
      // still hold all of them at the moment it ends.
      if (chat.status.turn === 'idle' && atTurnEnd === undefined && seen.size > 0) atTurnEnd = transcript(chat);
    });
    await chat.composer.send('Say hello');
    sub.dispose();
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    assert.equal(
      atTurnEnd,
      '## User\n\nSay hello\n\n<thinking>\nThe user wants a greeting.\n</thinking>\n\n## Assistant\n\nHello from the test agent\n',
    );
    assert.ok(seen.size >= 5, `the text should arrive in steps, saw ${seen.size}: ${[...seen].join(' | ')}`);
  });

  it('what agents send beside their answer: a compaction (a boundary with its summary) and a notice, in order', async () => {
    await chat.composer.send('compact the context');
    const shown = chat.thread.entries.slice(-4).map((e) => {
      if (e.kind === 'compaction') return `compaction ${e.compactionId} ${e.status}: ${e.summary}`;
      if (e.kind === 'notice') return `notice ${e.level}: ${e.text}`;
      return e.kind === 'assistant' ? `assistant: ${e.text}` : e.kind;
    });
    assert.deepEqual(shown, [
      'assistant: Long answer before.',
      'compaction compact-1 completed: The user asked for a **summary**.',
      'notice warning: Context was compacted: Earlier turns are summarized.',
      'assistant: After.',
    ]);
  });

  it("the session's plans by id (plan operations) are kept between turns, each replaced or removed by its id", async () => {
    await chat.composer.send('keep plans');
    assert.deepEqual(
      chat.status.plans?.map((p) => [p.id, p.type]),
      [
        ['backend', 'items'],
        ['rollout', 'markdown'],
        ['notes', 'file'],
      ],
    );
    const backend = chat.status.plans?.[0];
    assert.deepEqual(backend?.type === 'items' && backend.entries.map((e) => e.status), ['completed', 'in_progress']);
    await chat.composer.send('drop a plan');
    assert.deepEqual(
      chat.status.plans?.map((p) => p.id),
      ['backend', 'notes'],
    );
  });

  it("the plan's rate limits an agent reports beside its usage reach the usage meter, each window kept", async () => {
    await chat.composer.send('report rate limits');
    assert.deepEqual(chat.status.controls.usage?.limits, [
      { kind: 'five_hour', label: '5-hour', utilization: 0.42, status: 'allowed', resetsAt: 1_796_400_000_000 },
      { kind: 'seven_day', label: '7-day', utilization: 0.91, status: 'warning' },
    ]);
    assert.equal(chat.status.controls.usage?.used, 53_000);
  });

  it('the prompts an agent suggests next are offered until the next prompt is sent', async () => {
    await chat.composer.send('suggest what is next');
    assert.deepEqual(chat.status.suggestions, ['Run the tests', 'Open a pull request']);
    await chat.composer.send('Say hello');
    assert.equal(chat.status.suggestions, undefined);
  });

  it("a subagent's steps go inside the tool call that started it, not among the main agent's", async () => {
    const before = chat.thread.entries.length;
    await chat.composer.send('start a subagent');
    const added = chat.thread.entries.slice(before);
    assert.deepEqual(
      added.map((e) => e.kind),
      ['user', 'tool', 'assistant'],
    );
    const task = added[1]!;
    assert.ok(task.kind === 'tool');
    assert.deepEqual(
      task.children?.map((c) => (c.kind === 'tool' ? `${c.title}: ${c.status}` : `${c.kind}: ${c.text}`)),
      ['Read parser.ts: completed', 'assistant: The parser is fine.'],
    );
  });

  it('updates written right before the prompt response still land in the turn', async () => {
    let atTurnEnd: string | undefined;
    const sub = chat.onDidChange(() => {
      if (chat.status.turn === 'idle' && atTurnEnd === undefined) atTurnEnd = transcript(chat);
    });
    await chat.composer.send('burst');
    sub.dispose();
    assert.ok(atTurnEnd !== undefined);
    assert.match(atTurnEnd, /## User\n\nburst\n\n## Assistant\n\none two three four five\n$/);
  });

  it('Stop cancels a running turn', async () => {
    const turn = chat.composer.send('please stop me');
    await waitFor(
      chat,
      'the agent to start answering',
      () => lastEntry(chat)?.kind === 'assistant' && chat.status.turn === 'running',
    );
    await vscode.commands.executeCommand('vscode-acp.stop');
    await turn;
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    assert.match(transcript(chat), /Working on it\n\n> info: Stopped\.\n$/);
    assert.equal(chat.status.connection, 'connected');
  });

  it('a line of garbage on stdout is reported and the turn still completes', async () => {
    await chat.composer.send('send garbage');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    assert.match(transcript(chat), /Before\. After\./);
    if (hostSetup.reportsStrayOutput) {
      assert.match(transcript(chat), /not ACP to its output, ignored: this line is not JSON/);
    }
  });

  it('an agent crash is reported with exit code and stderr, and the chat recovers', async () => {
    await chat.composer.send('crash now');
    await waitFor(
      chat,
      'the connection to fail',
      () => chat.status.connection === 'failed' && chat.status.turn === 'idle',
    );
    const text = transcript(chat);
    // Named as the agent names itself, with every line of its stderr's end (the bridge's close reason holds one).
    assert.match(
      text,
      /The agent stopped: Test Agent exited with code 3\.\n[^]*boom: the first of two lines\nboom: simulated crash/,
    );
    // Recover: connect again and chat on.
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'reconnected', () => chat.status.connection === 'connected');
    await chat.composer.send('hello again');
    await waitFor(chat, 'the new reply', () => chat.status.turn === 'idle' && lastEntry(chat)?.kind === 'assistant');
    assert.match(transcript(chat), /hello again\n\n<thinking>[^]*Hello from the test agent\n$/);
  });

  it('New Chat clears the transcript and keeps the agent connected', async () => {
    await vscode.commands.executeCommand('vscode-acp.newChat');
    assert.equal(chat.thread.entries.length, 0);
    await chat.composer.send('Say hello');
    await waitFor(chat, 'the reply', () => chat.status.turn === 'idle' && lastEntry(chat)?.kind === 'assistant');
    assert.equal(chat.status.connection, 'connected');
  });

  it('session controls: config options, modes and early slash commands; a choice sticks for the next session', async () => {
    const controls = () => chat.status.controls;
    // available_commands_update arrives before the session/new response: buffered, not lost.
    await waitFor(chat, 'the slash commands', () => controls().commands.length > 0);
    assert.equal(JSON.stringify(controls().commands), '[{"name":"review","description":"Review code","hint":"files"}]');
    assert.equal(controls().modes?.currentModeId, 'ask');
    const model = controls().configOptions.find((o) => o.id === 'model');
    assert.equal(model?.currentValue, 'fast');
    await chat.changeControl({ kind: 'config', id: 'model', value: 'smart' });
    assert.equal(controls().configOptions.find((o) => o.id === 'model')?.currentValue, 'smart');
    await chat.changeControl({ kind: 'mode', id: 'code' });
    assert.equal(controls().modes?.currentModeId, 'code');
    // A new session of the same agent gets the remembered choices.
    await vscode.commands.executeCommand('vscode-acp.newChat');
    await waitFor(
      chat,
      'the remembered model',
      () =>
        controls().configOptions.find((o) => o.id === 'model')?.currentValue === 'smart' &&
        controls().modes?.currentModeId === 'code',
    );
  });

  it('a permission request waits for the user, with our labels, and the answer reaches the agent', async () => {
    const turn = chat.composer.send('ask permission');
    await waitFor(chat, 'the permission prompt', () => chat.status.permissions.length === 1);
    const prompt = chat.status.permissions[0];
    assert.equal(prompt.tool.title, 'Write notes.txt');
    assert.equal(prompt.choices.join(','), 'allow_once,allow_always,reject');
    assert.equal(prompt.agentOptions.join(','), 'Yes <b>please</b>,Always,No');
    assert.equal(prompt.tool.content[0]?.type, 'diff');
    // No silent auto-deny: it is still waiting a while later.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(chat.status.permissions.length, 1);
    chat.permissions.answer(prompt.requestId, 'reject');
    await turn;
    assert.match(transcript(chat), /> info: Reject: Write notes\.txt\n\n## Assistant\n\n\[permission: no\] done\n$/);
    assert.equal(chat.status.permissions.length, 0);
  });

  it('Stop answers a pending permission request as cancelled', async () => {
    const turn = chat.composer.send('ask permission again');
    await waitFor(chat, 'the permission prompt', () => chat.status.permissions.length === 1);
    await vscode.commands.executeCommand('vscode-acp.stop');
    await turn;
    assert.equal(chat.status.permissions.length, 0);
    assert.match(transcript(chat), /\[permission: cancelled\][^]*Stopped\.\n$/);
  });

  it('Disconnect ends the agent', async () => {
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    assert.equal(chat.status.connection, 'disconnected');
    assert.equal(chat.status.agentLabel, undefined);
  });
});
