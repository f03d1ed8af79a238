/**
 * ACP: Open Chat in Editor: a chat in an editor tab, so that two chats can be
 * seen side by side. A tab shows one chat (it can switch to another open one);
 * it closes with its chat.
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import { chatHtml, ChatWebviewSync } from './chatWebview';
import { handlePageMessage, type PageServices } from './webviewMessages';

export const CHAT_EDITOR_VIEW_TYPE = 'vscode-acp.chatEditor';

export class ChatEditorPanels implements vscode.Disposable {
  private readonly panels = new Map<vscode.WebviewPanel, { chat: Chat }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chats: Chats,
    private readonly services: Omit<PageServices, 'show' | 'reply'>,
  ) {}

  /** Chats shown in a tab now (their prompts can still be answered when the view goes). */
  get shownChats(): Set<Chat> {
    return new Set([...this.panels.values()].map((p) => p.chat));
  }

  /** Whether a visible tab shows `chat`. */
  showsVisibly(chat: Chat): boolean {
    return [...this.panels].some(([panel, shown]) => panel.visible && shown.chat === chat);
  }

  /** Opens `chat` in a tab beside the active editor, or reveals the tab that shows it. */
  open(chat: Chat): void {
    for (const [panel, shown] of this.panels) {
      if (shown.chat === chat) return panel.reveal();
    }
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(CHAT_EDITOR_VIEW_TYPE, titleOf(chat), vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [root],
    });
    const shown = { chat };
    this.panels.set(panel, shown);
    const page: PageServices = {
      ...this.services,
      reply: (message) => void panel.webview.postMessage(message),
      show: (chatId) => {
        const next = this.chats.get(chatId);
        if (next) shown.chat = next;
        sync.scheduleFlush();
      },
    };
    const sync = new ChatWebviewSync(
      panel.webview,
      this.chats,
      () => this.chats.get(shown.chat.id),
      (message, target) => handlePageMessage(message, target, page),
      this.services.log,
    );
    const subscriptions = [
      panel.webview.onDidReceiveMessage((raw: unknown) => sync.receive(raw)),
      this.chats.onDidChangeChat((changed) => {
        if (changed === shown.chat) sync.scheduleFlush();
      }),
      this.chats.onDidChangeList(() => {
        // Its chat was closed: so is the tab.
        if (!this.chats.get(shown.chat.id)) return panel.dispose();
        panel.title = titleOf(shown.chat);
        sync.scheduleFlush();
      }),
    ];
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      sync.dispose();
      subscriptions.forEach((s) => s.dispose());
    });
    panel.webview.html = chatHtml(panel.webview, root);
  }

  dispose(): void {
    for (const panel of [...this.panels.keys()]) panel.dispose();
  }
}

function titleOf(chat: Chat): string {
  return chat.title ? `ACP: ${chat.title.slice(0, 40)}` : 'ACP Chat';
}
