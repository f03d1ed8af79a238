/**
 * When a chat needs the user (no VS Code, the scripted agent): a turn that
 * finishes or fails, a permission prompt, a question; not a turn the user
 * stopped. The notifier (views/chatNotifier.ts) decides what to show.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import type { NeedUser } from '../../../../src/chats/chatEvents';
import { scriptedHost, until, type ScriptedHost } from './scriptedHost';

describe('a chat that needs the user (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let chat: Chat;
  let needs: NeedUser[];
  beforeEach(async () => {
    host = scriptedHost({
      turns: [
        { match: 'long', steps: [{ text: 'Working.' }, { waitForCancel: true }] },
        { match: 'fail', steps: [{ error: { code: -32603, message: 'boom' } }] },
        { match: 'permission', steps: [{ permission: {} }] },
        {
          match: 'question',
          steps: [
            {
              elicit: {
                mode: 'form',
                message: 'Name?',
                requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
              },
            },
          ],
        },
        { match: '', steps: [{ text: 'done' }] },
      ],
    });
    chat = await host.connectedChat();
    needs = [];
    host.chats.onDidNeedUser(({ chat: c, why }) => c === chat && needs.push(why));
  });
  afterEach(() => host.dispose());

  it('a turn that finishes, and one that fails', async () => {
    await chat.composer.send('hello');
    await chat.composer.send('fail now');
    assert.deepEqual(needs, ['finished', 'failed']);
  });

  it('a permission prompt and a question, each once; a turn the user stopped is not news', async () => {
    void chat.composer.send('permission please');
    await until('the prompt', () => chat.permissions.prompts.length === 1);
    chat.stop();
    await until('the turn to end', () => chat.thread.turn === 'idle');
    void chat.composer.send('question please');
    await until('the question', () => chat.elicitations.views.length === 1);
    chat.stop();
    await until('the turn to end', () => chat.thread.turn === 'idle');
    void chat.composer.send('long one');
    await until('the turn to run', () => chat.thread.turn === 'running');
    chat.stop();
    await until('the turn to end', () => chat.thread.turn === 'idle');
    assert.deepEqual(needs, ['permission', 'question']);
  });
});
