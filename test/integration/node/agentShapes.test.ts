/**
 * Node host: what real agents send, played by the scripted agent in the
 * shapes they were seen to send it (see test/real-agents/), so that each
 * fix holds without the agent installed. The real agents themselves run in
 * the real-agents stage.
 */
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

const scenario = {
  // Gemini CLI: legacy modes and models, both.
  modes: {
    currentModeId: 'default',
    availableModes: [
      { id: 'default', name: 'Default' },
      { id: 'autoEdit', name: 'Auto Edit' },
    ],
  },
  models: {
    currentModelId: 'gemini-2.5-pro',
    availableModels: [
      { modelId: 'gemini-2.5-pro', name: 'gemini-2.5-pro' },
      { modelId: 'gemini-2.5-flash', name: 'gemini-2.5-flash' },
    ],
  },
  turns: [
    {
      // Gemini CLI announces the call only in the permission request, then updates it.
      match: 'gemini',
      steps: [
        {
          permission: {
            toolCall: {
              toolCallId: 'write_file-1',
              title: 'Writing to a.txt',
              kind: 'edit',
              status: 'pending',
              content: [{ type: 'diff', path: '${cwd}/a.txt', oldText: null, newText: 'hi\n' }],
              locations: [{ path: '${cwd}/a.txt' }],
            },
          },
          expectOutcome: 'allow_once',
        },
        {
          toolCallUpdate: {
            toolCallId: 'write_file-1',
            status: 'completed',
            content: [{ type: 'diff', path: '${cwd}/a.txt', oldText: null, newText: 'hi\n' }],
          },
        },
        { text: 'Written.' },
      ],
    },
    {
      // Codex: the command as an argv array.
      match: 'codex',
      steps: [
        {
          toolCall: {
            toolCallId: 'call_1',
            title: 'Run echo ran',
            kind: 'execute',
            status: 'in_progress',
            rawInput: { call_id: 'call_1', command: ['bash', '-lc', 'echo ran | tee ran.txt'], cwd: '${cwd}' },
          },
        },
        { toolCallUpdate: { toolCallId: 'call_1', status: 'completed' } },
        { text: 'Ran.' },
      ],
    },
    {
      // OpenCode: the diff comes only in the permission request, and the last update replaces it with a text.
      match: 'opencode',
      steps: [
        { toolCall: { toolCallId: 'edit_1', title: 'write', kind: 'edit', status: 'pending', rawInput: {} } },
        {
          permission: {
            toolCall: {
              toolCallId: 'edit_1',
              title: '${cwd}/b.txt',
              kind: 'edit',
              status: 'pending',
              rawInput: { filepath: '${cwd}/b.txt', diff: '--- b.txt\n+++ b.txt\n-old\n+new\n' },
              content: [{ type: 'diff', path: '${cwd}/b.txt', oldText: 'old\n', newText: 'new\n' }],
            },
          },
          expectOutcome: 'allow_once',
        },
        {
          toolCallUpdate: {
            toolCallId: 'edit_1',
            status: 'completed',
            content: [{ type: 'content', content: { type: 'text', text: 'Edit applied successfully.' } }],
          },
        },
        { text: 'Edited.' },
      ],
    },
    {
      // An agent newer than us: update kinds we do not know, between the chunks of one answer.
      match: 'newer',
      steps: [
        { text: 'before ' },
        { update: { sessionUpdate: 'session_message', message: {} } },
        { update: { sessionUpdate: 'subagent_update', subagentId: 'x' } },
        { update: { sessionUpdate: 'session_message', message: {} } },
        // A kind we know (a plan operation) in a shape we do not: left out without a word.
        { update: { sessionUpdate: 'plan_update', entries: [] } },
        { text: 'after' },
      ],
    },
    {
      // Gemini CLI after a mode change: a chunk outside any turn (sent, then the turn is already over).
      match: 'outside',
      steps: [{ text: 'The answer.' }],
      after: [{ update: chunk('[MODE_UPDATE] autoEdit'), delayMs: 100 }],
    },
    { match: '', steps: [{ text: 'still here' }] },
  ],
};

describe('what real agents send', function () {
  this.timeout(60_000);
  let chat: Chat;

  before(async () => {
    chat = await chatWithAgents({ shapes: scenarioAgent('Shapes Agent', scenario) }, 'shapes');
  });

  const tool = (toolCallId: string) => {
    const entry = chat.thread.entries.find((e) => e.kind === 'tool' && e.toolCallId === toolCallId);
    return entry?.kind === 'tool' ? entry : undefined;
  };

  it('a tool call first seen in a permission request (Gemini CLI) is shown as a call, and its updates apply to it', async () => {
    void chat.composer.send('gemini');
    await waitFor(chat, 'the permission prompt', () => chat.status.permissions.length === 1);
    assert.equal(tool('write_file-1')?.title, 'Writing to a.txt', 'the call is in the chat while it waits');
    chat.permissions.answer(chat.status.permissions[0]!.requestId, 'allow_once');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle' && lastReply(chat).endsWith('Written.'));
    const calls = chat.thread.entries.filter((e) => e.kind === 'tool');
    assert.equal(calls.length, 1, 'one card for the call');
    assert.equal(tool('write_file-1')?.status, 'completed');
    assert.ok(!transcript(chat).includes('never started'));
  });

  it('both the Mode and the legacy Model control (Gemini CLI sends both), and a model change goes through session/set_model', async () => {
    assert.equal(chat.status.controls.modes?.currentModeId, 'default');
    assert.equal(
      JSON.stringify(chat.status.controls.models?.available.map((m) => m.modelId)),
      JSON.stringify(['gemini-2.5-pro', 'gemini-2.5-flash']),
    );
    await chat.changeControl({ kind: 'model', id: 'gemini-2.5-flash' });
    await waitFor(
      chat,
      'the model to change',
      () => chat.status.controls.models?.currentModelId === 'gemini-2.5-flash',
    );
    await chat.changeControl({ kind: 'mode', id: 'autoEdit' });
    await waitFor(chat, 'the mode to change', () => chat.status.controls.modes?.currentModeId === 'autoEdit');
  });

  it('a command given as an argv array (Codex) is shown as a command line', async () => {
    await chat.composer.send('codex');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle' && lastReply(chat) === 'Ran.');
    assert.equal(tool('call_1')?.input, "bash -lc 'echo ran | tee ran.txt'");
  });

  it('an edit whose diff came only in the permission request, then replaced by a text (OpenCode), still shows the diff', async () => {
    void chat.composer.send('opencode');
    await waitFor(chat, 'the permission prompt', () => chat.status.permissions.length === 1);
    chat.permissions.answer(chat.status.permissions[0]!.requestId, 'allow_once');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle' && lastReply(chat).endsWith('Edited.'));
    assert.equal(JSON.stringify(tool('edit_1')?.content.map((c) => c.type)), JSON.stringify(['diff', 'content']));
  });

  it('update kinds this client does not know are ignored, said once per kind, and the answer around them stays whole', async () => {
    await chat.composer.send('newer');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    const t = transcript(chat);
    const said = (kind: string) => t.split(`does not know ("${kind}")`).length - 1;
    assert.equal(said('session_message'), 1);
    assert.equal(said('subagent_update'), 1);
    assert.equal(said('plan_update'), 0);
    const answer = chat.thread.entries.filter((e) => e.kind === 'assistant').at(-1);
    assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'before after');
  });

  it('text the agent sends after its turn ended never joins the last answer', async () => {
    await chat.composer.send('outside');
    await waitFor(chat, 'the text outside the turn', () => lastReply(chat) === '[MODE_UPDATE] autoEdit');
    const answers = chat.thread.entries
      .filter((e) => e.kind === 'assistant')
      .slice(-2)
      .map((e) => (e.kind === 'assistant' ? e.text : ''));
    assert.equal(JSON.stringify(answers), JSON.stringify(['The answer.', '[MODE_UPDATE] autoEdit']));
    await chat.composer.send('and now?');
    await waitFor(chat, 'the next reply', () => chat.status.turn === 'idle' && lastReply(chat) === 'still here');
  });
});
