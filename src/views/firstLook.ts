/**
 * The chat view in front once, the first time the extension runs: VS Code opens the Secondary Side Bar on its own
 * Chat, where ours is the second tab a new user does not see (issue 46, item 4). Once shown, the user's layout is
 * theirs: it is never brought forward again, in any window.
 */
import * as vscode from 'vscode';
import { CHAT_VIEW_ID } from './chatViewProvider';

/** The global state's key: the view was brought to the front once. */
const SHOWN_ONCE = 'vscode-acp.chatShownOnce';

export async function showChatOnce(state: vscode.Memento, log: vscode.LogOutputChannel): Promise<void> {
  if (state.get(SHOWN_ONCE)) return;
  await state.update(SHOWN_ONCE, true);
  try {
    // `<view>.open` (VS Code 1.100) reveals the view without moving the keyboard away from the editor.
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.open`, { preserveFocus: true });
  } catch (error) {
    log.warn(`The chat view was not shown: ${String(error)}`);
  }
}
