/**
 * Node host: Edit and resend with checkpoints and the history. Files the
 * agent changed from the edited prompt on go back first (the preview of
 * Restore files to here; said no to, nothing changes), the conversation goes
 * on from before that prompt on a fork of the agent's session, and the chat
 * as it was stays in the workspace's history, whole.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { answeringWarning } from '../shared/dialogs';
import { acpApi, waitFor } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { chatStatus } from '../../../src/views/chatStatus';

const brancher = scenarioAgent('Brancher', {
  // Forks at a message, as Claude Code's adapter does (known by its name).
  agentInfo: { name: '@agentclientprotocol/claude-agent-acp', title: 'Brancher', version: '0.101.0' },
  messageIds: true,
  agentCapabilities: { sessionCapabilities: { fork: {}, resume: {} } },
  turns: [
    {
      match: 'write the file',
      steps: [{ diskWrite: { path: '${cwd}/rewind/a.txt', content: 'agent\n' } }, { text: 'wrote' }],
    },
    { match: '', steps: [{ reportHistory: true }] },
  ],
});

describe('Edit and resend (Node host: checkpoints, history)', function () {
  this.timeout(60_000);
  let file: string;

  beforeEach(async () => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    fs.rmSync(path.join(root, 'rewind'), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'rewind'));
    file = path.join(root, 'rewind', 'a.txt');
    await chatWithAgents({ brancher }, 'brancher');
  });

  async function threeTurns() {
    const chat = (await acpApi()).chats.shown;
    for (const text of ['first words', 'write the file', 'third']) await chat.composer.send(text);
    assert.equal(fs.readFileSync(file, 'utf8'), 'agent\n');
    await waitFor(chat, 'the checkpoints', () => chatStatus(chat).checkpoints.length >= 2);
    const prompt = chat.thread.entries.find((e) => e.kind === 'user' && e.text === 'write the file')!.id;
    return { chat, prompt };
  }

  it('files go back after the preview, the conversation goes on from before the prompt, and the history keeps it as it was', async () => {
    const api = await acpApi();
    const { chat, prompt } = await threeTurns();
    const before = chat.sessionRef!.sessionId;
    // Saved at the end of each turn; the write is queued.
    const saved = async () =>
      (await api.sessions.list()).find((s) => s.agentId === 'brancher' && s.sessionId === before);
    for (let i = 0; i < 50 && !(await saved()); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(await saved(), `saved before the edit: ${JSON.stringify(await api.sessions.list())}`);
    await answeringWarning(
      (buttons) => buttons[0],
      () => chat.rewind.resend(prompt, 'other words'),
    );
    await waitFor(chat, 'the answer', () => chat.thread.turn === 'idle' && /other words\]$/.test(lastText(chat)));
    assert.equal(fs.existsSync(file), false, 'the file the agent created from that prompt on is gone');
    assert.equal(lastText(chat), `[history of ${chat.sessionRef!.sessionId}: first words | other words]`);
    assert.ok(chat.sessionRef!.sessionId !== before, 'a session of its own');
    // The chat as it was: saved under its session, every turn in it.
    const entry = await saved();
    assert.ok(entry, 'the session before the edit is still in the history');
    const text = JSON.stringify((await api.sessions.transcript(entry)) as unknown);
    for (const said of ['first words', 'write the file', 'third']) assert.ok(text.includes(said), said);
    assert.ok(!text.includes('other words'), 'not the edit');
    // A click away from the chat: the notice's "Open the conversation as it was".
    const notice = chat.thread.entries.find((e) => e.kind === 'notice' && e.action === 'openReplaced');
    assert.ok(notice?.kind === 'notice' && notice.text.startsWith('Edited: the conversation goes on from here.'));
    await vscode.commands.executeCommand('vscode-acp.openSavedSession', notice.replaced);
    const opened = api.chats.shown;
    assert.ok(opened.id !== chat.id, 'another chat');
    assert.ok(JSON.stringify(opened.thread.entries).includes('third'), 'with the turns the edit replaced');
    await api.chats.close(opened.id);
  });

  it('said no to the preview: nothing changes', async () => {
    const { chat, prompt } = await threeTurns();
    const before = JSON.stringify(chat.thread.entries);
    const session = chat.sessionRef!.sessionId;
    await answeringWarning(
      () => undefined,
      () => chat.rewind.resend(prompt, 'other words'),
    );
    assert.equal(JSON.stringify(chat.thread.entries), before);
    assert.equal(chat.sessionRef!.sessionId, session);
    assert.equal(fs.readFileSync(file, 'utf8'), 'agent\n');
    assert.equal(chatStatus(chat).returnedDraft?.text, 'other words', 'the edited text is back in the box, not lost');
  });
});

function lastText(chat: { thread: { entries: readonly { kind: string; text?: string }[] } }): string {
  return chat.thread.entries.at(-1)?.text ?? '';
}
