/**
 * Node host: several chats at once. Chats with the same agent share its
 * process, each with its own session, thread and permission prompts; a
 * background chat shows what it wants; closing a chat closes its session;
 * a crash ends every chat on the process and each one says so.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { OpenChat } from '../../../src/extension';
import type { OpenChats } from '../../../src/extension';
import * as assert from '../shared/assert';
import { acpApi, waitFor, type Chat } from '../shared/chatWaits';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

const scenario = {
  agentCapabilities: { sessionCapabilities: { close: {} } },
  turns: [
    { match: 'sessions', steps: [{ reportSessions: true }] },
    {
      match: 'ask',
      steps: [
        { stream: { text: 'Asking first. ', chunks: 3, intervalMs: 5 } },
        { permission: { toolCall: { toolCallId: 'write-1', title: 'Write notes.txt', kind: 'edit' } } },
      ],
    },
    { match: 'crash', steps: [{ crash: { exitCode: 3, stderr: 'shared agent fell over' } }] },
  ],
};

function lastText(one: OpenChat): string {
  const last = one.thread.entries.at(-1);
  return last?.kind === 'assistant' ? last.text : `(last entry is ${last?.kind})`;
}

async function ask(one: OpenChat, text: string): Promise<string> {
  await one.composer.send(text);
  return lastText(one);
}

describe('several chats at once (Node host)', function () {
  this.timeout(60_000);
  let chat: Chat;
  let chats: OpenChats;
  let first: OpenChat;
  let second: OpenChat;

  before(async () => {
    chat = await chatWithAgents({ multi: scenarioAgent('Multi Agent', scenario) }, 'multi');
    chats = (await acpApi()).chats;
    first = chats.shown;
  });

  it('two chats with one agent share its process, each with a session of its own', async () => {
    const one = await ask(first, 'sessions');
    const [, pid] = /^\[sessions open: 1, pid (\d+)\]$/.exec(one) ?? [];
    assert.ok(pid, one);
    await vscode.commands.executeCommand('vscode-acp.newChat');
    second = chats.shown;
    assert.ok(second !== first, 'New Chat opened another chat');
    assert.ok(chats.all.includes(first), 'and kept the one before');
    assert.equal(second.agentId, 'multi');
    // The chat before was connected: the new one connects to the same agent at once.
    await waitFor(second, 'connected', () => second.connection === 'connected');
    assert.equal(await ask(second, 'sessions'), `[sessions open: 2, pid ${pid}]`);
    assert.equal(
      second.thread.entries.filter((e) => e.kind === 'user').length,
      1,
      'the new chat shows only its own turn',
    );
  });

  it('both stream at once, each asks permission in its own chat, answered in the other order', async () => {
    const turns = [first.composer.send('ask from the first'), second.composer.send('ask from the second')];
    await waitFor(first, 'its prompt', () => first.permissions.prompts.length === 1);
    await waitFor(second, 'its prompt', () => second.permissions.prompts.length === 1);
    // The first chat is in the background: its line says it asks.
    assert.equal(chats.shown, second);
    assert.equal(chats.summaries().find((s) => s.id === first.id)?.marker, 'permission');
    assert.equal(chat.status.permissions.length, 1, "the view shows only the shown chat's prompt");
    second.permissions.answer(second.permissions.prompts[0].requestId, 'allow_once');
    await waitFor(second, 'its answer', () => lastText(second).includes('[permission: allow_once]'));
    assert.equal(first.permissions.prompts.length, 1, "the other chat's prompt still waits");
    first.permissions.answer(first.permissions.prompts[0].requestId, 'reject');
    await Promise.all(turns);
    assert.match(lastText(first), /\[permission: reject_once\]$/);
    assert.match(lastText(second), /\[permission: allow_once\]$/);
    assert.equal(
      chats.summaries().find((s) => s.id === first.id)?.marker,
      'finished',
      'the background chat finished out of sight',
    );
    chats.show(first.id);
    assert.equal(chats.summaries().find((s) => s.id === first.id)?.marker, 'none', 'seen once shown');
    assert.equal(chat.status.chatId, first.id);
  });

  it('closing a chat closes its session on the agent (session/close); the other chat goes on', async () => {
    const before = await ask(first, 'sessions');
    assert.match(before, /^\[sessions open: 2,/);
    await chats.close(second.id);
    assert.equal(chats.get(second.id), undefined);
    for (let i = 0; i < 20 && !/open: 1,/.test(lastText(first)); i++) await ask(first, 'sessions');
    assert.match(lastText(first), /^\[sessions open: 1,/);
  });

  it('changed agent settings: the next chat gets a process as they now say; a chat on the old one keeps it', async () => {
    const before = await ask(first, 'sessions');
    const [, oldPid] = /pid (\d+)/.exec(before) ?? [];
    const changed = { ...scenario, turns: [{ match: 'sessions', steps: [{ text: 'the new configuration' }] }] };
    await chatWithAgents({ multi: scenarioAgent('Multi Agent', changed) });
    const next = chats.newChat();
    next.selectAgent('multi');
    assert.equal(await ask(next, 'sessions'), 'the new configuration');
    assert.match(
      await ask(first, 'sessions'),
      new RegExp(`pid ${oldPid}\\]$`),
      'the chat before still has its process',
    );
    await chats.close(next.id);
    await chatWithAgents({ multi: scenarioAgent('Multi Agent', scenario) });
    // Back on a process of the current settings, for the next test.
    await first.disconnect();
    assert.ok(await first.connect());
  });

  it('a crash ends every chat on the process, and each says so', async () => {
    chats.newChat();
    second = chats.shown;
    await waitFor(second, 'connected', () => second.connection === 'connected');
    await first.composer.send('crash');
    await waitFor(first, 'failed', () => first.connection === 'failed');
    await waitFor(second, 'failed', () => second.connection === 'failed');
    for (const one of [first, second]) {
      assert.match(threadToMarkdown(one.thread), /The agent stopped: [^]*shared agent fell over/);
    }
    // A new start serves them again.
    assert.match(await ask(second, 'sessions'), /^\[sessions open: 1,/);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    await chats.close(first.id);
  });

  it('Restart Agent: the chat shown gets a new process and a new session; another chat on the old process reconnects and continues its own', async () => {
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-restart-'));
    await chatWithAgents({
      keeper: scenarioAgent(
        'Keeper Agent',
        { ...scenario, agentCapabilities: { sessionCapabilities: { close: {}, resume: {} } } },
        '--sessions',
        store,
      ),
    });
    const pidOf = (text: string) => /pid (\d+)\]$/.exec(text)?.[1];
    const other = chats.newChat();
    other.selectAgent('keeper');
    const before = pidOf(await ask(other, 'sessions'));
    const shown = chats.newChat();
    assert.equal(chats.shown, shown);
    assert.equal(shown.agentId, 'keeper');
    assert.equal(pidOf(await ask(shown, 'sessions')), before, 'one process for both');
    const [otherSession, shownSession] = [other.sessionRef?.sessionId, shown.sessionRef?.sessionId];
    await vscode.commands.executeCommand('vscode-acp.restart');
    await waitFor(other, 'the other chat back', () => other.connection === 'connected');
    assert.equal(shown.connection, 'connected');
    assert.equal(other.sessionRef?.sessionId, otherSession, 'the other chat continues its session');
    assert.ok(shown.sessionRef && shown.sessionRef.sessionId !== shownSession, 'the chat shown has a new one');
    const after = pidOf(await ask(shown, 'sessions'));
    assert.ok(after && after !== before, `a new process: ${before} then ${after}`);
    assert.equal(pidOf(await ask(other, 'sessions')), after, 'the other chat is on the new process too');
    await chats.close(other.id);
    await chats.close(shown.id);
  });
});
