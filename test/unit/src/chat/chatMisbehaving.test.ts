/**
 * The chat core without VS Code, against a scripted agent that misbehaves
 * (never confirms a Stop, floods permission requests) or remembers (a mode
 * chosen, a session loaded with a late replay).
 */
import * as assert from 'node:assert/strict';
import { scriptedHost, shown, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

describe('the chat core against a scripted agent that misbehaves or remembers (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  it('a Stop the agent never confirms: after the grace period the turn ends anyway, and says so', async () => {
    host = scriptedHost({ turns: [{ match: '', steps: [{ hang: true }] }] });
    const chat = await host.connectedChat();
    void chat.composer.send('never finish');
    await until('the turn to run', () => chat.thread.turn === 'running');
    const stopped = Date.now();
    chat.stop();
    await until('Send to be back', () => chat.thread.turn === 'idle');
    assert.ok(Date.now() - stopped < 3_000, `Send back after ${Date.now() - stopped} ms`);
    assert.match(shown(chat), /The agent did not confirm the stop/);
  });

  it('a flood of permission requests: a bounded number wait, the rest are refused and said once', async () => {
    host = scriptedHost({ turns: [{ match: '', steps: [{ permissionFlood: { count: 100 } }] }] });
    const chat = await host.connectedChat();
    const turn = chat.composer.send('flood');
    await until('the flood to arrive', () => /asked for more than \d+ permissions at once/.test(shown(chat)));
    const waiting = chat.permissions.prompts.length;
    assert.ok(waiting > 0 && waiting < 100, `${waiting} waiting`);
    assert.equal(shown(chat).split('permissions at once').length - 1, 1, 'said once');
    chat.stop();
    await turn;
    assert.equal(chat.permissions.prompts.length, 0, 'Stop answers what waits');
  });

  it("a mode picked is sent to the agent, and a new session gets it back as the agent's remembered choice", async () => {
    const modes = {
      currentModeId: 'ask',
      availableModes: [
        { id: 'ask', name: 'Ask' },
        { id: 'code', name: 'Code' },
      ],
    };
    host = scriptedHost({ modes, turns: [{ match: '', steps: [{ text: 'ok' }] }] });
    const chat = await host.connectedChat();
    assert.equal(chatStatus(chat).controls.modes?.currentModeId, 'ask');
    await chat.changeControl({ kind: 'mode', id: 'code' });
    assert.equal(chatStatus(chat).controls.modes?.currentModeId, 'code');
    await chat.composer.send('one');
    const next = await host.connectedChat();
    await until('the remembered mode', () => chatStatus(next).controls.modes?.currentModeId === 'code');
  });

  it("a loaded session's history is shown once: the replay that comes after the load's answer is left out", async () => {
    host = scriptedHost(
      {
        agentCapabilities: { loadSession: true },
        replayAfterLoad: true,
        turns: [
          { match: '^recall', steps: [{ reportHistory: true }] },
          { match: '', steps: [{ text: 'Said once.' }] },
        ],
      },
      { keepsSessions: true },
    );
    const first = await host.connectedChat();
    await first.composer.send('first words');
    const session = first.sessionRef!;
    const saved = { version: 1 as const, entries: [...first.thread.entries], terminals: {} };
    // The chat is closed, and its agent process with it: the agent's own store keeps the session.
    await host.chats.close(first.id);
    const entry = { key: 'k1', title: 'first words', createdAt: 1, updatedAt: 1, ...session };
    const opened = host.chats.openSaved(entry, saved);
    await opened.composer.send('recall');
    const text = shown(opened);
    assert.match(text, /The session continues \(loaded by the agent\)/);
    assert.equal(text.split('Said once.').length - 1, 1, `the earlier reply once:\n${text}`);
    assert.match(text, /\[history of [^:]+: first words \| recall\]/);
  });
});

const effortOption = {
  id: 'effort',
  name: 'Effort',
  type: 'select',
  currentValue: 'low',
  options: [
    { value: 'low', name: 'Low' },
    { group: 'more', name: 'More', options: [{ value: 'high', name: 'High' }] },
  ],
};

describe('session controls the agent refuses (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  it('a config option the agent refuses: the chat says so, and the control stays as it was', async () => {
    host = scriptedHost({ configOptions: [effortOption], turns: [{ match: '', steps: [{ text: 'ok' }] }] });
    const chat = await host.connectedChat();
    await chat.changeControl({ kind: 'config', id: 'no-such-option', value: 'high' });
    assert.match(shown(chat), /The agent refused the change: .*unknown config option/);
    await chat.changeControl({ kind: 'config', id: 'effort', value: 'high' });
    const effort = chatStatus(chat).controls.configOptions?.find((o) => o.id === 'effort');
    assert.equal(effort && 'currentValue' in effort ? effort.currentValue : undefined, 'high');
  });
});

describe('session answers that do not fit the schema (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  it('modes and config options that do not fit are left out; the session opens, new or forked, with the rest', async () => {
    host = scriptedHost({
      agentCapabilities: { sessionCapabilities: { fork: {} } },
      modes: { currentModeId: 'ask', availableModes: 'ask, code' } as never,
      configOptions: [
        effortOption,
        { id: 7, type: 'select', name: 'Bad id' },
        { id: 'flag', type: 'boolean', name: 'Flag', currentValue: 'yes' },
        { id: 'odd', type: 'range', name: 'Odd', currentValue: 3 },
      ] as never,
      turns: [{ match: '', steps: [{ text: 'ok' }] }],
    });
    const chat = await host.connectedChat();
    const ids = (c: typeof chat) => chatStatus(c).controls.configOptions.map((o) => o.id);
    assert.deepEqual(ids(chat), ['effort']);
    assert.equal(chatStatus(chat).controls.modes, undefined);
    const kept = chatStatus(chat).controls.configOptions[0];
    assert.deepEqual(kept?.type === 'select' ? kept.options.map((o) => o.value) : [], ['low', 'high']);
    await chat.composer.send('one');
    const first = chat.thread.entries.find((e) => e.kind === 'user');
    const branch = host.chats.branch(chat, first!.id)!;
    await branch.composer.send('two');
    await until('the branch to answer', () => branch.thread.turn === 'idle' && /ok/.test(shown(branch)));
    assert.match(shown(branch), /The agent forked its session/);
    assert.deepEqual(ids(branch), ['effort']);
  });
});
