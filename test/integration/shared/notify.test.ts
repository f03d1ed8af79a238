/**
 * Both hosts: a chat out of sight that asks permission raises a notification
 * whose Open Chat shows it; with vscode-acp.notifications "never", none.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { waitFor } from './chatWaits';
import { newChatWithTestAgent } from './host';

type Show = (message: string, ...items: string[]) => Thenable<string | undefined>;

/** Runs `run` with VS Code's warning and information notifications recorded, each answered `answer`. */
async function notifications(answer: string | undefined, run: () => Promise<void>): Promise<string[]> {
  const window = vscode.window as unknown as { showWarningMessage: Show; showInformationMessage: Show };
  const real = { warning: window.showWarningMessage, info: window.showInformationMessage };
  const shown: string[] = [];
  const record: Show = async (message) => (shown.push(message), answer);
  window.showWarningMessage = record;
  window.showInformationMessage = record;
  try {
    await run();
  } finally {
    window.showWarningMessage = real.warning;
    window.showInformationMessage = real.info;
  }
  return shown;
}

describe('notifications when a chat needs you', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('vscode-acp');
  afterEach(() => config().update('notifications', undefined, vscode.ConfigurationTarget.Global));

  it('a chat out of sight that asks permission: a notification, and Open Chat shows that chat', async () => {
    const { api, chat: asking } = await newChatWithTestAgent();
    // A chat with a turn in it stays open when another is made (New Chat closes an empty one).
    await asking.composer.send('which capabilities');
    const other = api.chats.newChat();
    api.chats.show(other.id);
    const shown = await notifications('Open Chat', async () => {
      const turn = asking.composer.send('permission please');
      await waitFor(asking, 'its permission prompt', () => asking.permissions.prompts.length === 1);
      await waitFor(asking, 'shown', () => api.chats.shown === asking);
      asking.permissions.answer(asking.permissions.prompts[0]!.requestId, 'allow_once');
      await turn;
    });
    assert.match(shown[0] ?? '', /: the agent asks for permission\.$/);
    await api.chats.close(other.id);
    await api.chats.close(asking.id);
  });

  it('with vscode-acp.notifications "never": none', async () => {
    await config().update('notifications', 'never', vscode.ConfigurationTarget.Global);
    const { api, chat: asking } = await newChatWithTestAgent();
    // A chat with a turn in it stays open when another is made (New Chat closes an empty one).
    await asking.composer.send('which capabilities');
    const other = api.chats.newChat();
    api.chats.show(other.id);
    const shown = await notifications(undefined, async () => {
      const turn = asking.composer.send('permission please');
      await waitFor(asking, 'its permission prompt', () => asking.permissions.prompts.length === 1);
      asking.permissions.answer(asking.permissions.prompts[0]!.requestId, 'allow_once');
      await turn;
    });
    assert.deepEqual(shown, []);
    await api.chats.close(other.id);
    await api.chats.close(asking.id);
  });
});
