/**
 * The chat view in the Secondary Side Bar: shows the chat Chats says is
 * shown, lets the page switch between open chats, names the shown chat in
 * the view's own header (its description, as VS Code's Chat and Zed keep the
 * thread's title over it: the side bar's 292 px leave the page's header
 * little room), and puts a badge on the view for chats that want the user
 * out of its sight.
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import { viewDescription } from '../chats/chatAttention';
import type { Chats } from '../chats/chats';
import { chatHtml, ChatWebviewSync } from './chatWebview';
import { handlePageMessage, type PageServices } from './webviewMessages';

export const CHAT_VIEW_ID = 'vscode-acp.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private sync: ChatWebviewSync | undefined;
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chats: Chats,
    private readonly services: Omit<PageServices, 'show' | 'reply'>,
    /** The view went away: nobody can answer its prompts there now. */
    private readonly onViewGone: () => void,
  ) {
    this.subscriptions.push(
      chats.onDidChangeShown(() => this.sync?.scheduleFlush()),
      // The shown chat's name changes only with the list (another chat shown, a title): not at every streamed chunk.
      chats.onDidChangeList(() => {
        this.sync?.scheduleFlush();
        this.updateBadge();
        this.updateDescription();
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.sync?.dispose();
    this.view = view;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    const page: PageServices = {
      ...this.services,
      reply: (message) => void view.webview.postMessage(message),
      show: (chatId) => this.chats.show(chatId),
    };
    const sync = new ChatWebviewSync(
      view.webview,
      this.chats,
      () => this.chats.shown,
      (message, chat) => handlePageMessage(message, chat, page),
      this.services.log,
    );
    this.sync = sync;
    view.webview.html = chatHtml(view.webview, root);
    view.webview.onDidReceiveMessage((raw: unknown) => sync.receive(raw), undefined, this.subscriptions);
    view.onDidChangeVisibility(() => this.updateBadge(), undefined, this.subscriptions);
    view.onDidDispose(
      () => {
        if (this.view !== view) return;
        this.view = undefined;
        sync.dispose();
        this.sync = undefined;
        this.onViewGone();
      },
      undefined,
      this.subscriptions,
    );
    this.updateBadge();
    this.updateDescription();
  }

  /** Whether `chat` is what the view shows, and the view is visible. */
  showsVisibly(chat: Chat): boolean {
    return this.view?.visible === true && this.chats.shown === chat;
  }

  /** Shows the view. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  dispose(): void {
    this.sync?.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }

  private updateDescription(): void {
    const view = this.view;
    if (!view) return;
    const description = viewDescription(this.chats.summaries(), this.chats.shown.id);
    if (view.description !== description) view.description = description;
  }

  private updateBadge(): void {
    const view = this.view;
    if (!view) return;
    const count = this.chats.needingAttention(view.visible);
    view.badge =
      count > 0 ? { value: count, tooltip: count === 1 ? 'A chat needs you' : `${count} chats need you` } : undefined;
  }
}
