/**
 * Node host: a chat keeps at most 64 MiB of transcript in memory. An agent
 * that sends 72 MiB in 72 messages has its oldest moved to a file, which the
 * chat's notice opens; the chat goes on; New Chat deletes the file.
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, lastReply, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import {
  MAX_TRANSCRIPT_CHARS,
  MOVED_NOTICE_ID,
  TRIM_TARGET_CHARS,
  transcriptSize,
} from '../../../src/shared/saved/transcriptBound';

const MiB = 1024 * 1024;
const MESSAGES = 72;

describe('a transcript past 64 MiB', function () {
  this.timeout(120_000);
  let chat: Chat;

  before(async () => {
    const steps = [];
    for (let i = 0; i < MESSAGES; i++) {
      // A tool call between two messages makes each its own entry.
      steps.push(
        { text: `message ${i} starts here ` },
        { bigText: { size: MiB } },
        { toolCall: { toolCallId: `c${i}`, title: `step ${i}`, kind: 'read', status: 'completed' } },
      );
    }
    const scenario = {
      turns: [
        { match: 'long', steps },
        { match: '', steps: [{ text: 'still here' }] },
      ],
    };
    chat = await chatWithAgents({ long: scenarioAgent('Long Agent', scenario) }, 'long');
  });

  it('keeps at most 64 MiB, moves the oldest entries to a file the notice opens; closing the chat deletes it', async () => {
    await chat.composer.send('something long');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle', 90_000);
    const size = transcriptSize(chat.thread);
    assert.ok(size <= MAX_TRANSCRIPT_CHARS, `${size} characters kept`);
    assert.ok(size >= TRIM_TARGET_CHARS - 2 * MiB, `${size} characters kept: no more was moved than needed`);
    const [first] = chat.thread.entries;
    assert.equal(first?.id, MOVED_NOTICE_ID);
    assert.match(
      first?.kind === 'notice' ? first.text : '',
      /^The [\d,]+ oldest entries of this chat \([\d.]+ MiB\) were moved out of memory to a file/,
    );
    assert.equal(first?.kind === 'notice' ? first.action : undefined, 'openEarlier');
    const messages = chat.thread.entries.filter((e) => e.kind === 'assistant');
    const newest = messages[messages.length - 1];
    assert.ok(
      newest?.kind === 'assistant' && newest.text.startsWith(`message ${MESSAGES - 1} starts here`),
      'the newest message is kept',
    );
    assert.ok(!chat.thread.entries.some((e) => e.kind === 'user'), 'the prompt, the oldest entry, was moved out');

    await chat.openEarlier();
    const document = vscode.window.activeTextEditor?.document;
    assert.equal(document?.uri.scheme, 'file');
    const text = document?.getText() ?? '';
    assert.ok(text.startsWith('# Earlier entries, part 1'), text.slice(0, 200));
    assert.ok(text.includes('something long'), 'the prompt is in the file');
    assert.ok(text.includes('message 0 starts here'), 'so is the first message');
    const file = document!.uri.fsPath;
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await chat.composer.send('and now?');
    await waitFor(chat, 'the next reply', () => chat.status.turn === 'idle' && lastReply(chat) === 'still here');

    // New Chat keeps this chat (and its file); closing it deletes the file.
    await vscode.commands.executeCommand('vscode-acp.newChat');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fs.existsSync(file), true, 'New Chat keeps the chat before it, and its file');
    const { chats } = await acpApi();
    const old = chats.all.find((c) => c.thread.entries[0]?.id === MOVED_NOTICE_ID);
    assert.ok(old, 'the long chat is still open');
    await chats.close(old.id);
    for (const end = Date.now() + 5_000; fs.existsSync(file) && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(fs.existsSync(file), false, `closing the chat deleted the file ${file}`);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });
});
