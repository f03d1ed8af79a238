/**
 * Keeping one webview (the chat view, or an editor tab) in sync with the chat
 * it shows, at most once per FLUSH_INTERVAL_MS, and handing the messages it sends to that
 * chat (webviewMessages.ts). The page itself: strict CSP with a nonce.
 */
import { pageHead } from '../shared/page/pageHead';
import * as vscode from 'vscode';
import { diffEntries, nextFlushAt } from '../shared/page/entryPatches';
import { transcriptSize } from '../shared/saved/transcriptBound';
import { firstPost, nextPost } from './newestFirst';
import type { HostMessage } from '../shared/page/protocol';
import { chatTargetSchema, webviewMessageSchema, type WebviewMessage } from '../shared/page/pageMessages';
import type { Entry } from '../shared/thread/thread';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import { viewStatus } from './chatStatus';

/**
 * The page keeps the lists of this many chats (the shown one and the last
 * ones shown): switching back to one is a patch, not the whole list again.
 */
export const PAGE_CHATS = 2;
/**
 * A chat whose transcript is larger than this is not kept in the page when
 * another is shown (its DOM can be a few hundred MiB: issue 10's bound is for
 * one chat); switching back to it renders it again.
 */
export const KEEP_MAX_CHARS = 8 * 1024 * 1024;

export class ChatWebviewSync implements vscode.Disposable {
  private sentEntries: readonly Entry[] = [];
  private sentChat: Chat | undefined;
  /** The shown chat's entries before this index are not in the page yet (sent newest first, see newestFirst.ts). */
  private unsentBelow = 0;
  /** What the page holds of the other chats it keeps, least recently shown first. */
  private readonly kept = new Map<Chat, readonly Entry[]>();
  private sentStatus = '';
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFlushAt = -Infinity;
  private disposed = false;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly chats: Chats,
    /** The chat this webview shows now (undefined: it was closed). */
    private readonly shown: () => Chat | undefined,
    /** Handles a message the page sent about `chat` (undefined: the page named a chat that is gone). */
    private readonly handle: (message: WebviewMessage, chat: Chat | undefined) => Promise<void> | void,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** A parsed message, with the chat it is about; malformed ones are logged and dropped. */
  receive(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    const target = chatTargetSchema.safeParse(raw);
    if (!parsed.success || !target.success) {
      this.log.warn(`Dropped a malformed message from the chat view: ${(parsed.error ?? target.error)?.message}`);
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      // A (re)loaded page has nothing: send everything.
      this.sentChat = undefined;
      this.sentEntries = [];
      this.unsentBelow = 0;
      this.kept.clear();
      this.sentStatus = '';
      this.flush();
    }
    const chatId = target.data.chatId;
    const chat = chatId === undefined ? this.shown() : this.chats.get(chatId);
    void Promise.resolve(this.handle(message, chat)).catch((error: unknown) =>
      this.log.error(`Handling ${message.type} failed: ${String(error)}`),
    );
  }

  /**
   * Changes are posted together, at most once an interval (see nextFlushAt). Even
   * "at once" waits for a timer, so that the changes made in one go (one
   * agent message can make several) are one post.
   */
  scheduleFlush(): void {
    if (this.flushTimer !== undefined || this.disposed) return;
    const now = performance.now();
    this.flushTimer = setTimeout(() => this.flush(), nextFlushAt(now, this.lastFlushAt) - now);
  }

  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.lastFlushAt = performance.now();
    const chat = this.shown();
    if (!chat || this.disposed) return;
    const entries = chat.thread.entries;
    if (chat !== this.sentChat) {
      // Another chat: its list first (the page may hold it already, else newest first), then its status.
      // A list the page does not hold whole yet is not kept.
      if (this.sentChat && this.unsentBelow === 0 && transcriptSize({ entries: this.sentEntries }) <= KEEP_MAX_CHARS) {
        this.kept.set(this.sentChat, this.sentEntries);
      }
      const held = this.kept.get(chat) ?? [];
      this.kept.delete(chat);
      for (const old of this.kept.keys()) {
        if (this.kept.size > PAGE_CHATS - 1 || !this.chats.get(old.id)) this.kept.delete(old);
      }
      this.sentChat = chat;
      this.sentEntries = entries;
      const first = held.length === 0 ? firstPost(entries) : undefined;
      this.unsentBelow = first?.unsentBelow ?? 0;
      const patch = first?.patch ?? diffEntries(held, entries) ?? { length: entries.length, ops: [] };
      this.post({ type: 'entries', ...patch, chatId: chat.id, keep: [...this.kept.keys()].map((c) => c.id) });
      this.postStatus(chat);
      if (this.unsentBelow > 0) this.scheduleFlush();
      return;
    }
    this.postStatus(chat);
    let patch = diffEntries(this.sentEntries, entries);
    this.sentEntries = entries;
    if (this.unsentBelow > 0) {
      ({ patch, unsentBelow: this.unsentBelow } = nextPost(entries, this.unsentBelow, patch));
      if (this.unsentBelow > 0) this.scheduleFlush();
    }
    if (patch) this.post({ type: 'entries', ...patch });
  }

  private postStatus(chat: Chat): void {
    const roots = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath);
    const status = { ...viewStatus(this.chats, chat), ...(roots?.length ? { roots } : {}) };
    const statusJson = JSON.stringify(status);
    if (statusJson !== this.sentStatus) {
      this.sentStatus = statusJson;
      this.post({ type: 'status', status });
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
  }

  private post(message: HostMessage): void {
    void this.webview.postMessage(message);
  }
}

/** The chat page: exported so that component tests load the real page and CSP. */
export function chatHtml(webview: vscode.Webview, root: vscode.Uri): string {
  const nonce = makeNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(root, 'webview.js'));
  const codiconFont = webview.asWebviewUri(vscode.Uri.joinPath(root, 'codicon.ttf'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  return `${pageHead(csp, 'ACP Chat')}
<style nonce="${nonce}">
  /* Declared in the document: @font-face does not work from inside a shadow root. */
  @font-face { font-family: "codicon"; font-display: block; src: url("${codiconFont.toString()}") format("truetype"); }
  body { margin: 0; padding: 0; }
</style>
</head>
<body>
<acp-chat-app></acp-chat-app>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

function makeNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
