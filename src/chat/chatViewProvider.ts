/**
 * The chat webview view: its HTML (strict CSP with a nonce), the messages it
 * sends us, and keeping it in sync with the controller at most once a frame.
 */
import * as vscode from 'vscode';
import { diffEntries, nextFlushAt } from '../shared/entryPatches';
import { webviewMessageSchema, type HostMessage, type WebviewMessage } from '../shared/protocol';
import type { Entry } from '../shared/thread';
import type { ChatController } from './chatController';
import type { LinkOpener } from './linkOpener';
import type { MessageDocuments } from './messageDocuments';

export const CHAT_VIEW_ID = 'vscode-acp.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private sentEntries: readonly Entry[] = [];
  private sentStatus = '';
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFlushAt = -Infinity;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly links: LinkOpener,
    private readonly messages: MessageDocuments,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions.push(controller.onDidChange(() => this.scheduleFlush()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    view.webview.html = chatHtml(view.webview, root);
    view.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw), undefined, this.subscriptions);
    view.onDidDispose(() => {
      if (this.view !== view) return;
      this.view = undefined;
      // Nobody can answer a prompt in a view that is gone, and grants given there end with it.
      this.controller.permissions.cancelAll();
      this.controller.revokeGrants();
    }, undefined, this.subscriptions);
  }

  dispose(): void {
    clearTimeout(this.flushTimer);
    this.subscriptions.forEach((s) => s.dispose());
  }

  private onMessage(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Dropped a malformed message from the chat view: ${parsed.error.message}`);
      return;
    }
    void this.handle(parsed.data);
  }

  private async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        // A (re)loaded view has nothing: send everything.
        this.sentEntries = [];
        this.sentStatus = '';
        this.flush();
        return this.controller.refreshAgents();
      case 'selectAgent': return this.controller.selectAgent(message.agentId);
      case 'installAgent': return void (await this.controller.installAgent(message.agentId));
      case 'connect': return void (await this.controller.connect());
      case 'disconnect': return this.controller.disconnect();
      case 'newChat': return this.controller.newChat();
      case 'prompt': return this.controller.send(message.text);
      case 'cancel': return this.controller.stop();
      case 'cancelPending': return this.controller.cancelPending();
      case 'draftTaken': return this.controller.draftTaken(message.id);
      case 'restart': return void (await this.controller.restart());
      case 'openEarlier': return this.controller.openEarlier();
      case 'openLink': return this.links.openLink(message.href);
      case 'openLocation': return this.links.openLocation(message.path, message.line);
      case 'copyText': return void vscode.env.clipboard.writeText(message.text);
      case 'openEntry': return void (await this.messages.open(message.entryId));
      case 'setConfigOption': return this.controller.changeControl({ kind: 'config', id: message.configId, value: message.value });
      case 'setMode': return this.controller.changeControl({ kind: 'mode', id: message.modeId });
      case 'setModel': return this.controller.changeControl({ kind: 'model', id: message.modelId });
      case 'answerPermission': return this.controller.permissions.answer(message.requestId, message.choice);
    }
  }

  /**
   * Changes are posted together, at most once a frame (see nextFlushAt). Even
   * "at once" waits for a timer, so that the changes made in one go (one
   * agent message can make several) are one post.
   */
  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    const now = performance.now();
    this.flushTimer = setTimeout(() => this.flush(), nextFlushAt(now, this.lastFlushAt) - now);
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.lastFlushAt = performance.now();
    const webview = this.view?.webview;
    if (!webview) return;
    const status = this.controller.status;
    const statusJson = JSON.stringify(status);
    if (statusJson !== this.sentStatus) {
      this.sentStatus = statusJson;
      this.post(webview, { type: 'status', status });
    }
    const entries = this.controller.thread.entries;
    const patch = diffEntries(this.sentEntries, entries);
    this.sentEntries = entries;
    if (patch) this.post(webview, { type: 'entries', ...patch });
  }

  private post(webview: vscode.Webview, message: HostMessage): void {
    void webview.postMessage(message);
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
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>ACP Chat</title>
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
