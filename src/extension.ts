/**
 * The shared activation: both entries (Node and web worker) call this with
 * their platform. Nothing here spawns or scans synchronously.
 */
import * as vscode from 'vscode';
import type { Chat } from './chat/chat';
import { AgentList } from './chat/agentList';
import { ChatEditorPanels } from './chat/chatEditorPanel';
import { Chats } from './chat/chats';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatViewProvider';
import { ControlChoices } from './chat/controlChoices';
import { LinkOpener } from './chat/linkOpener';
import { MESSAGE_SCHEME, MessageDocuments } from './chat/messageDocuments';
import { CheckpointDocuments } from './chat/checkpointDocuments';
import { CHECKPOINT_SCHEME } from './chat/chatChanges';
import { TranscriptArchive } from './chat/transcriptArchive';
import { AgentConnections } from './connection/agentConnections';
import type { Platform } from './platform';
import { deleteSessionCommand, loadSessionCommand } from './sessions/sessionCommands';
import { SessionStore } from './sessions/sessionStore';
import { addFiles, attachSelection, pickAttachments } from './attachments/attach';
import { Mentions } from './attachments/mentions';
import { SESSIONS_VIEW_ID, SessionsTree } from './sessions/sessionsTree';
import { registerSessionsTreeCommands } from './sessions/sessionsTreeCommands';
import type { ViewStatus } from './shared/protocol';
import { MCP_REPORT_URI, McpReports } from './mcp/showMcpServers';
import { redactingLog } from './secrets/redactor';
import { errorMessage } from './connection/errors';
import { Diagnostics } from './diagnostics/diagnostics';
import { sessionFolderIfAny } from './workspaceFolder';
import { affectsSettings, restartsAgents } from './settings/settings';

/** The chat the view shows, whichever it is at the moment of each call. */
export type ShownChat = Pick<Chat, 'thread' | 'selectAgent' | 'send' | 'changeControl' | 'permissions' | 'cancelPending' | 'draftTaken' | 'openEarlier'> & {
  readonly status: ViewStatus;
  /** Fires after any change of the shown chat, and when another chat is shown. */
  readonly onDidChange: vscode.Event<void>;
  refreshAgents(): Promise<void>;
  installAgent(agentId: string): Promise<void>;
};

/** What the extension exports to other extensions (and to its own integration tests). */
export interface AcpExtensionApi {
  /** Opens a message's whole text in an editor (what the view's "Open the whole message" does). */
  readonly openMessage: (entryId: string) => Promise<boolean>;
  readonly chat: ShownChat;
  readonly chats: Chats;
  readonly sessions: SessionStore;
  readonly sessionsTree: SessionsTree;
}

export function activateWith(context: vscode.ExtensionContext, platform: Platform): AcpExtensionApi {
  // Everything written to the log is redacted first (secrets that MCP configs resolved).
  const log = redactingLog(vscode.window.createOutputChannel('ACP', { log: true }));
  const mcpReports = new McpReports(platform.mcpHost);
  const packageJson = context.extension.packageJSON as { name: string; version: string };
  const diagnostics = new Diagnostics();
  const agents = new AgentConnections(platform, { name: packageJson.name, version: packageJson.version }, log, diagnostics);
  const agentList = new AgentList(platform, context.globalState, log);
  // Workspace storage: each workspace has its own history, and none without a folder.
  const store = new SessionStore(context.storageUri, log);
  const chats = new Chats({ platform, agents, agentList, choices: new ControlChoices(context.globalState), log }, () => new TranscriptArchive(context.globalStorageUri, log), store);
  const sessionDeps = { chats, store, agentList, agents, log };
  const sessionsTree = new SessionsTree(agentList, agents, store, chats, log);
  const messages = new MessageDocuments(() => chats.all.map((c) => c.thread));
  const checkpointDocuments = platform.checkpoints ? new CheckpointDocuments(platform.checkpoints) : undefined;
  const services = { chats, links: new LinkOpener(platform, log), messages, log, mentions: new Mentions() };
  const panels = new ChatEditorPanels(context.extensionUri, chats, services);
  const view = new ChatViewProvider(context.extensionUri, chats, services, () => {
    // Nobody can answer a prompt in a view that is gone, and grants given there end with it
    // (a chat open in an editor tab is still in sight).
    const inTabs = panels.shownChats;
    for (const chat of chats.all) {
      if (inTabs.has(chat)) continue;
      chat.permissions.cancelAll();
      chat.revokeGrants();
    }
  });
  const shown = () => chats.shown;
  context.subscriptions.push(
    log,
    panels,
    view,
    chats,
    agents,
    store,
    store.onDidFail((text) => void vscode.window.showWarningMessage(text)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    sessionsTree,
    vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: sessionsTree }),
    ...registerSessionsTreeCommands(sessionsTree, sessionDeps),
    vscode.workspace.registerTextDocumentContentProvider(MESSAGE_SCHEME, messages),
    ...(checkpointDocuments ? [checkpointDocuments, vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, checkpointDocuments)] : []),
    mcpReports,
    diagnostics,
    vscode.commands.registerCommand('vscode-acp.showDiagnostics', () => diagnostics.show()),
    vscode.workspace.registerTextDocumentContentProvider(MCP_REPORT_URI.scheme, mcpReports),
    vscode.commands.registerCommand('vscode-acp.signOut', async () => {
      const chat = shown();
      const agentId = chat.agentId;
      if (!agentId) return;
      const name = agentList.name(agentId);
      try {
        const done = chat.liveConnection ? await chat.liveConnection.signOut() : await agents.using(agentId, (c) => c.signOut());
        if (done) void vscode.window.showInformationMessage(`Signed out of ${name}.`);
        else if (done === false) void vscode.window.showInformationMessage(`${name} does not offer signing out (its sign-in is kept by the agent itself).`);
      } catch (error) {
        void vscode.window.showErrorMessage(`Signing out of ${name} failed: ${errorMessage(error)}`);
      }
    }),
    vscode.commands.registerCommand('vscode-acp.showMcpServers', async () => {
      // The shown chat's session folder and agent; before it connects, the folder its session would take.
      const live = shown().liveConnection;
      const picked = live ? { folder: live.folder } : await sessionFolderIfAny().then((p) => p && { folder: p.folder?.uri });
      if (!picked) return;
      await mcpReports.show(picked.folder, live ? { name: live.agentLabel, capabilities: live.init.agentCapabilities?.mcpCapabilities, os: live.agentOs } : undefined);
    }),
    vscode.commands.registerCommand('vscode-acp.showCheckpoints', async () => {
      if (!checkpointDocuments) return void vscode.window.showInformationMessage('Checkpoints are not kept here: the agent\'s files are on the bridge\'s machine.');
      await checkpointDocuments.showReport();
    }),
    vscode.commands.registerCommand('vscode-acp.connect', () => shown().connect()),
    vscode.commands.registerCommand('vscode-acp.disconnect', () => shown().disconnect()),
    vscode.commands.registerCommand('vscode-acp.newChat', () => void chats.newChat()),
    vscode.commands.registerCommand('vscode-acp.closeChat', () => chats.close(shown().id)),
    vscode.commands.registerCommand('vscode-acp.openChatInEditor', () => panels.open(shown())),
    vscode.commands.registerCommand('vscode-acp.loadSession', () => loadSessionCommand(sessionDeps)),
    vscode.commands.registerCommand('vscode-acp.deleteSession', () => deleteSessionCommand(sessionDeps)),
    vscode.commands.registerCommand('vscode-acp.clearChat', () => shown().clear()),
    vscode.commands.registerCommand('vscode-acp.stop', () => shown().stop()),
    vscode.commands.registerCommand('vscode-acp.restart', () => shown().restart()),
    // With URIs (another extension, a test): those files; without, the paperclip's pick.
    vscode.commands.registerCommand('vscode-acp.attachFiles', (uris?: unknown) =>
      Array.isArray(uris) ? addFiles(shown().attachments, uris.filter((u): u is vscode.Uri => u instanceof vscode.Uri)) : pickAttachments(shown().attachments)),
    vscode.commands.registerCommand('vscode-acp.focusChat', () => view.reveal()),
    vscode.commands.registerCommand('vscode-acp.addSelection', async () => {
      const chat = shown();
      if (!attachSelection(chat.attachments, vscode.window.activeTextEditor)) return;
      await view.reveal();
      chat.focusComposer();
    }),
    // Trust changes which settings and PATH entries count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void chats.refreshAgents()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsSettings(e)) return;
      if (restartsAgents(e)) agents.retire();
      void chats.refreshAgents();
    }),
  );
  platform.registerCommands?.(context);
  void chats.refreshAgents();
  const chat: ShownChat = {
    get thread() { return chats.shown.thread; },
    get status() { return chats.viewStatus(chats.shown); },
    get permissions() { return chats.shown.permissions; },
    onDidChange: chats.onDidChangeShown,
    selectAgent: (agentId) => chats.shown.selectAgent(agentId),
    send: (text) => chats.shown.send(text),
    changeControl: (change) => chats.shown.changeControl(change),
    cancelPending: () => chats.shown.cancelPending(),
    draftTaken: (id) => chats.shown.draftTaken(id),
    openEarlier: () => chats.shown.openEarlier(),
    refreshAgents: () => chats.refreshAgents(),
    installAgent: (agentId) => chats.installAgent(chats.shown, agentId),
  };
  return { chat, chats, sessions: store, sessionsTree, openMessage: (entryId) => messages.open(entryId) };
}
