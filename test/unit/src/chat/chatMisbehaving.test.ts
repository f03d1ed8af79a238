/**
 * The chat core without VS Code, against a scripted agent that misbehaves
 * (never confirms a Stop, floods permission requests) or remembers (a mode
 * chosen, a session loaded with a late replay).
 */
import * as assert from 'node:assert/strict';
import { AGENT_ID, scriptedHost, shown, until, type ScriptedHost } from './scriptedHost';
import type { Chat } from '../../../../src/chat/chat';
import { MAX_MODEL_CHOICES, modelChoices } from '../../../../src/chat/modelChoices';
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

describe("a chat's own model (Ask Several Agents: one agent once per model; no VS Code)", function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());
  const modelOption = {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'fast',
    options: [
      { value: 'fast', name: 'Fast' },
      { value: 'smart', name: 'Smart' },
    ],
  };
  const model = (chat: Chat) => {
    const option = chatStatus(chat).controls.configOptions?.find((o) => o.id === 'model');
    return option && 'currentValue' in option ? option.currentValue : undefined;
  };

  it("is set before the first prompt, over the agent's remembered choice, and is not remembered for the agent", async () => {
    host = scriptedHost({ configOptions: [modelOption], turns: [{ match: '', steps: [{ text: 'ok' }] }] });
    const first = await host.connectedChat();
    await first.changeControl({ kind: 'config', id: 'model', value: 'fast' });
    // A chat with a conversation: a new chat does not take its place.
    await first.composer.send('zero');
    const pinned = await host.newChat();
    pinned.selectAgent(AGENT_ID);
    const choice = modelChoices(chatStatus(first).controls).find((c) => c.name === 'Smart');
    assert.ok(choice);
    pinned.controls.pin(choice.change);
    await pinned.composer.send('one');
    assert.equal(model(pinned), 'smart');
    const next = await host.connectedChat();
    await until('the remembered model', () => model(next) === 'fast');
    // The user's own pick in the view ends the pin: a new session of that chat keeps the user's.
    await pinned.changeControl({ kind: 'config', id: 'model', value: 'fast' });
    assert.equal(model(pinned), 'fast');
  });

  it('a model the agent refuses is said in the chat, and the prompt still goes', async () => {
    host = scriptedHost({ configOptions: [modelOption], turns: [{ match: '', steps: [{ text: 'ok' }] }] });
    const chat = await host.newChat();
    chat.selectAgent(AGENT_ID);
    chat.controls.pin({ kind: 'config', id: 'retired', value: 'x' });
    await chat.composer.send('one');
    await until('the answer', () => chat.thread.turn === 'idle' && /ok/.test(shown(chat)));
    assert.match(shown(chat), /The agent refused config retired x: .*unknown config option/);
    assert.equal(model(chat), 'fast');
  });
});

describe('the models a session offers', () => {
  it('from its model config option (by category, else by id), else its legacy models; bounded', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `m${i}`, name: `M ${i}` }));
    const select = (id: string, category?: string) => ({
      type: 'select' as const,
      id,
      name: id,
      currentValue: 'm0',
      options: options(30),
      ...(category ? { category } : {}),
    });
    const legacy = { currentModelId: 'a', available: [{ modelId: 'a', name: 'A' }] };
    const controls = (configOptions: ReturnType<typeof select>[]) => ({ configOptions, commands: [], models: legacy });
    assert.deepEqual(
      modelChoices(controls([select('effort'), select('llm', 'model')]), 2).map((c) => c.change),
      [
        { kind: 'config', id: 'llm', value: 'm0' },
        { kind: 'config', id: 'llm', value: 'm1' },
      ],
    );
    assert.equal(modelChoices(controls([select('model')])).length, MAX_MODEL_CHOICES);
    assert.deepEqual(modelChoices(controls([select('effort')])), [{ name: 'A', change: { kind: 'model', id: 'a' } }]);
    assert.deepEqual(modelChoices({ configOptions: [], commands: [] }), []);
  });
});
