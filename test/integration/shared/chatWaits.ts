/** Reaching and waiting on the chat in integration tests, shared by every suite. */
import * as vscode from 'vscode';
import type { AcpExtensionApi } from '../../../src/extension';
import { emptySessionControls } from '../../../src/shared/sessionControls';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import { chatStatus, type StatusSource } from '../../../src/views/chatStatus';

export type Chat = AcpExtensionApi['chat'];

/** Activates the extension under test and returns what it exports. */
export async function acpApi(): Promise<AcpExtensionApi> {
  const ext = vscode.extensions.getExtension<AcpExtensionApi>('vscode-acp.vscode-acp');
  if (!ext) throw new Error('the extension under test is not installed');
  return ext.activate();
}

/** Activates the extension under test and returns its shown chat. */
export async function activeChat(): Promise<Chat> {
  return (await acpApi()).chat;
}

/** Anything with a thread that says when it changes: the shown chat (with the view's status), or one chat of several. */
export type Watched = { readonly thread: Chat['thread']; readonly onDidChange: vscode.Event<void> } & (
  { readonly status: unknown } | StatusSource
);

/** Resolves when `check` holds, re-checked on every change of the chat; the timeout error shows transcript and status. */
export function waitFor(chat: Watched, what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(
        new Error(
          `Timed out waiting for ${what}. Transcript:\n${threadToMarkdown(chat.thread)}\nStatus: ${JSON.stringify('status' in chat ? chat.status : chatStatus(chat))}`,
        ),
      );
    }, timeoutMs);
    const sub = chat.onDidChange(() => {
      if (!check()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/** The entries as Markdown (session controls are checked on their own). */
export function transcript(chat: Pick<Chat, 'thread'>): string {
  return threadToMarkdown({ ...chat.thread, controls: emptySessionControls });
}

/** The text of the last entry when it is the agent's reply. */
export function lastReply(chat: Pick<Chat, 'thread'>): string {
  const last = chat.thread.entries[chat.thread.entries.length - 1];
  return last?.kind === 'assistant' ? last.text : `(last entry is ${last?.kind})`;
}
