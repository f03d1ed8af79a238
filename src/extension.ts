/**
 * The shared activation: both entries (Node and web worker) call this with
 * their platform. Nothing here spawns or scans synchronously.
 */
import * as vscode from 'vscode';
import { ChatController } from './chat/chatController';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatViewProvider';
import { LinkOpener } from './chat/linkOpener';
import { MESSAGE_SCHEME, MessageDocuments } from './chat/messageDocuments';
import type { Platform } from './platform';
import { TranscriptArchive } from './chat/transcriptArchive';

/** What the extension exports to other extensions (and to its own integration tests). */
export interface AcpExtensionApi {
  /** Opens a message's whole text in an editor (what the view's "Open the whole message" does). */
  readonly openMessage: (entryId: string) => Promise<boolean>;
  readonly chat: Pick<ChatController, 'thread' | 'status' | 'onDidChange' | 'selectAgent' | 'send' | 'refreshAgents' | 'changeControl' | 'permissions' | 'cancelPending' | 'draftTaken' | 'openEarlier' | 'installAgent'>;
}

export function activateWith(context: vscode.ExtensionContext, platform: Platform): AcpExtensionApi {
  const log = vscode.window.createOutputChannel('ACP', { log: true });
  const packageJson = context.extension.packageJSON as { name: string; version: string };
  const archive = new TranscriptArchive(context.globalStorageUri, log);
  const controller = new ChatController(platform, { name: packageJson.name, version: packageJson.version }, log, context.globalState, archive);
  const messages = new MessageDocuments(() => controller.thread);
  const view = new ChatViewProvider(context.extensionUri, controller, new LinkOpener(platform, log), messages, log);
  context.subscriptions.push(
    log,
    archive,
    controller,
    view,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    vscode.workspace.registerTextDocumentContentProvider(MESSAGE_SCHEME, messages),
    vscode.commands.registerCommand('vscode-acp.connect', () => controller.connect()),
    vscode.commands.registerCommand('vscode-acp.disconnect', () => controller.disconnect()),
    vscode.commands.registerCommand('vscode-acp.newChat', () => controller.newChat()),
    vscode.commands.registerCommand('vscode-acp.clearChat', () => controller.clearChat()),
    vscode.commands.registerCommand('vscode-acp.stop', () => controller.stop()),
    vscode.commands.registerCommand('vscode-acp.restart', () => controller.restart()),
    vscode.commands.registerCommand('vscode-acp.focusChat', () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
    // Trust changes which settings and PATH entries count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void controller.refreshAgents()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('vscode-acp')) void controller.refreshAgents();
    }),
  );
  platform.registerCommands?.(context);
  void controller.refreshAgents();
  return { chat: controller, openMessage: (entryId) => messages.open(entryId) };
}
