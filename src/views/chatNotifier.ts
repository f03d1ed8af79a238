/**
 * Hearing when a chat needs you: a chat that finishes or fails a turn, asks
 * for permission or asks a question while it is not in sight (its view or tab
 * hidden, another chat shown there, or the window not focused) raises a VS
 * Code notification whose button opens it; `vscode-acp.notifications` says
 * never, when not in sight (the default) or always. The view's badge counts
 * such chats whatever the setting (chatViewProvider.ts).
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import type { NeedUser } from '../chats/chatEvents';
import { setting } from '../settings/settings';
import type { SettingValue } from '../settings/settingsTable';

export type NotifyWhen = SettingValue<'notifications'>;

/** Whether a chat's need is worth a notification: by the setting, and whether the chat is in sight. */
export function shouldNotify(when: NotifyWhen, inSight: boolean): boolean {
  return when === 'always' || (when === 'whenHidden' && !inSight);
}

/** The notification's text for `why`, naming the chat. */
export function needText(why: NeedUser, title: string): { level: 'info' | 'warning' | 'error'; text: string } {
  const chat = `"${title.length > 60 ? `${title.slice(0, 59)}…` : title}"`;
  switch (why) {
    case 'finished':
      return { level: 'info', text: `${chat}: the agent is done.` };
    case 'failed':
      return { level: 'error', text: `${chat}: the agent's turn failed.` };
    case 'permission':
      return { level: 'warning', text: `${chat}: the agent asks for permission.` };
    case 'question':
      return { level: 'warning', text: `${chat}: the agent asks you something.` };
  }
}

export const OPEN_CHAT = 'Open Chat';

export function notifyWhenNeeded(
  chats: Chats,
  /** Whether `chat` is shown in a view or tab that is visible now. */
  shownVisibly: (chat: Chat) => boolean,
  /** Shows `chat` (in the view, or its tab). */
  open: (chat: Chat) => Promise<void>,
): vscode.Disposable {
  return chats.onDidNeedUser(({ chat, why }) => {
    const inSight = vscode.window.state.focused && shownVisibly(chat);
    if (!shouldNotify(setting('notifications'), inSight)) return;
    const { level, text } = needText(why, chat.title ?? 'New chat');
    const show =
      level === 'error'
        ? vscode.window.showErrorMessage
        : level === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    void Promise.resolve(show(text, OPEN_CHAT)).then((picked) => {
      // Still open: a chat closed meanwhile has nothing to show.
      if (picked === OPEN_CHAT && chats.get(chat.id)) void open(chat);
    });
  });
}
