/**
 * The shared activation: both entries (Node and web worker) call this with
 * their platform. Nothing here spawns or scans synchronously.
 */
import * as vscode from 'vscode';
import type { Chat } from './chat/chat';
import { AgentList } from './agents/agentList';
import { followWalkthrough } from './walkthrough';
import { ChatEditorPanels } from './views/chatEditorPanel';
import { notifyWhenNeeded } from './views/chatNotifier';
import { Chats } from './chats/chats';
import { CHAT_VIEW_ID, ChatViewProvider } from './views/chatViewProvider';
import { RememberedControls } from './chat/rememberedControls';
import { LinkOpener } from './views/linkOpener';
import { showChatOnce } from './views/firstLook';
import { viewStatus, type StatusSource } from './views/chatStatus';
import { vscodeWindow } from './views/vscodeWindow';
import { MESSAGE_SCHEME, MessageDocuments } from './views/messageDocuments';
import { TranscriptArchive } from './views/transcriptArchive';
import { AgentConnections } from './connection/agentConnections';
import type { Platform } from './platform';
import type { ChangesFeature } from './changesFeature';
import { registerSessionCommands } from './history/historyCommands';
import { HistoryStore } from './history/historyStore';
import { openSavedChat, saveHistory } from './history/historySaver';
import { lastOpenChats, rememberOpenChats, reopenChats } from './history/openChats';
import { Mentions } from './attachments/mentions';
import { preparedIn } from './attachments/placeAttachment';
import { prepareAttachment } from './attachments/prepareAttachment';
import { SESSIONS_VIEW_ID, SessionsTree } from './history/sessionsTree';
import { registerSessionsTreeCommands } from './history/sessionsTreeCommands';
import type { ViewStatus } from './shared/page/protocol';
import type { HistoryEntry } from './shared/saved/savedSessions';
import { MCP_REPORT_URI, McpReports } from './mcp/showMcpServers';
import { redactingLog } from './secrets/redactor';
import { Diagnostics } from './diagnostics/diagnostics';
import { editorGroups, VscodeEditor } from './editorServer/vscodeEditor';
import { registerAgentCommands } from './commands/agentCommands';
import { registerChatCommands } from './commands/chatCommands';
import { registerContextCommands } from './commands/contextCommands';
import { affectsSettings, restartsAgents, setting } from './settings/settings';

/** The chat the view shows, whichever it is at the moment of each call. */
export type ShownChat = Pick<
  Chat,
  'thread' | 'selectAgent' | 'composer' | 'changeControl' | 'permissions' | 'openEarlier'
> & {
  readonly status: ViewStatus;
  /** Fires after any change of the shown chat, and when another chat is shown. */
  readonly onDidChange: vscode.Event<void>;
  refreshAgents(): Promise<void>;
  installAgent(agentId: string): Promise<void>;
};

/** One open chat, as the API offers it: what a user can see and do with it. */
export type OpenChat = StatusSource &
  Pick<
    Chat,
    | 'id'
    | 'title'
    | 'sessionRef'
    | 'onDidChange'
    | 'selectAgent'
    | 'connect'
    | 'disconnect'
    | 'restart'
    | 'signIn'
    | 'rewind'
    | 'stop'
    | 'changeControl'
    | 'setFollow'
    | 'openEarlier'
    | 'place'
  >;

/** The open chats, as the API offers them. */
export interface OpenChats extends Pick<Chats, 'show' | 'close' | 'summaries' | 'openListed'> {
  readonly shown: OpenChat;
  readonly all: readonly OpenChat[];
  get(chatId: string): OpenChat | undefined;
  newChat(): OpenChat;
  /** Branch from here (Chats.branch). */
  branch(source: OpenChat, entryId: string): OpenChat | undefined;
  /** Rename (Chats.rename). */
  rename(chat: OpenChat, title: string): ReturnType<Chats['rename']>;
}
/** This workspace's saved chats, as the API offers them. */
export type SavedChats = Pick<HistoryStore, 'location' | 'list' | 'transcript' | 'save' | 'delete' | 'rename'>;
/** The Sessions view, as the API offers it. */
export type SessionsView = Pick<SessionsTree, 'refresh' | 'relist' | 'abilities' | 'getChildren' | 'getTreeItem'>;

/**
 * What the extension exports to other extensions (and to its own integration
 * tests): a narrow view of its parts, so that their insides can change.
 */
export interface AcpExtensionApi {
  /** Opens a message's whole text in an editor (what the view's "Open the whole message" does). */
  readonly openMessage: (entryId: string) => Promise<boolean>;
  readonly chat: ShownChat;
  readonly chats: OpenChats;
  readonly sessions: SavedChats;
  /** Opens a saved chat (what the Sessions tree and ACP: Load Session do). */
  readonly openSaved: (entry: HistoryEntry, how?: 'load' | 'resume') => Promise<OpenChat>;
  readonly sessionsTree: SessionsView;
}

/** The parts a host entry's own features use. */
export interface HostParts {
  readonly chats: Chats;
  readonly agentList: AgentList;
  readonly store: HistoryStore;
  readonly sessionsTree: SessionsTree;
}

/** What deactivation waits for: the history's writes asked for before the window closed or reloaded. */
let historyWritten: () => Promise<unknown> = () => Promise.resolve();

/** The extension's deactivate (both entries): a window reloaded right after a turn keeps what it saved. */
export function deactivateWith(): Promise<unknown> {
  return historyWritten();
}

/**
 * `changes`: the Changes bar and the review in editors, for a platform with checkpoints (changesFeature.ts). The Node
 * entry passes it; the web entry does not, so none of it is in the web bundle.
 */
export function activateWith(
  context: vscode.ExtensionContext,
  platform: Platform,
  changesFeature?: (checkpoints: NonNullable<Platform['checkpoints']>) => ChangesFeature,
  /** What only a host entry adds once the chats exist (the Node entry: the worktree commands). */
  hostFeatures?: (parts: HostParts) => vscode.Disposable[],
): AcpExtensionApi {
  // Everything written to the log is redacted first (secrets that MCP configs resolved).
  const log = redactingLog(vscode.window.createOutputChannel('ACP', { log: true }));
  const mcpReports = new McpReports(platform.mcpHost);
  const packageJson = context.extension.packageJSON as { name: string; version: string };
  const diagnostics = new Diagnostics();
  const agents = new AgentConnections(
    platform,
    vscodeWindow,
    { name: packageJson.name, version: packageJson.version },
    log,
    diagnostics,
    () => setting('protocol.v2'),
  );
  const agentList = new AgentList(platform, context.globalState, log, () => setting('defaultAgent'));
  // Workspace storage: each workspace has its own history, and none without a folder.
  const store = new HistoryStore(context.storageUri, log);
  // The chats open before a window reload: numbered after, then brought back (see below).
  const lastOpen = lastOpenChats(context.workspaceState);
  const changes = platform.checkpoints && changesFeature?.(platform.checkpoints);
  const chats = new Chats(
    {
      platform,
      agents,
      agentList,
      choices: new RememberedControls(context.globalState),
      log,
      window: vscodeWindow,
      prepareAttachment: async (source, roots, place) =>
        preparedIn(place, await prepareAttachment(source, platform.attachmentFiles, roots)),
      editorServer: {
        editor: new VscodeEditor(),
        version: packageJson.version,
        groups: editorGroups,
        toldNoHttp: new Set(),
        onCall: (call) => diagnostics.record(call),
      },
      ...(changes ? { changesBar: changes.bar } : {}),
    },
    () => new TranscriptArchive(context.globalStorageUri, log),
    lastOpen?.idsUsed,
  );
  const sessionDeps = { chats, store, agentList, agents, log };
  const sessionsTree = new SessionsTree(agentList, agents, store, chats, log);
  const messages = new MessageDocuments(() => chats.all.map((c) => c.thread));
  const checkpointDocuments = changes?.documents;
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
  const saver = saveHistory(chats, store, platform, log);
  historyWritten = () => saver.written();
  context.subscriptions.push(
    log,
    panels,
    view,
    chats,
    agents,
    store,
    saver,
    notifyWhenNeeded(
      chats,
      (chat) => view.showsVisibly(chat) || panels.showsVisibly(chat),
      async (chat) => {
        if (panels.shownChats.has(chat)) return panels.open(chat);
        chats.show(chat.id);
        await view.reveal();
      },
    ),
    rememberOpenChats(chats, context.workspaceState),
    followWalkthrough(chats),
    store.onDidFail((text) => void vscode.window.showWarningMessage(text)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    sessionsTree,
    vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: sessionsTree }),
    ...registerSessionsTreeCommands(sessionsTree, sessionDeps),
    vscode.workspace.registerTextDocumentContentProvider(MESSAGE_SCHEME, messages),
    ...(changes?.start(chats, view) ?? []),
    mcpReports,
    diagnostics,
    vscode.workspace.registerTextDocumentContentProvider(MCP_REPORT_URI.scheme, mcpReports),
    ...registerChatCommands({ chats, panels, view }),
    ...registerContextCommands({ chats, view }),
    ...registerAgentCommands({ chats, agents, agentList, mcpReports, checkpointDocuments, diagnostics, platform }),
    ...registerSessionCommands(sessionDeps),
    // Trust changes which settings and PATH entries count, and what a new connection is offered.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      agents.retire();
      chats.workspaceTrusted();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsSettings(e)) return;
      if (restartsAgents(e)) agents.retire();
      void chats.refreshAgents();
    }),
  );
  platform.registerCommands?.(context);
  context.subscriptions.push(...(hostFeatures?.({ chats, agentList, store, sessionsTree }) ?? []));
  void showChatOnce(context.globalState, log);
  void chats.refreshAgents();
  void reopenChats(chats, store, lastOpen).catch((error: unknown) =>
    log.warn(`The chats open before the reload were not brought back: ${String(error)}`),
  );
  return {
    chat: shownChat(chats),
    chats,
    sessions: store,
    sessionsTree,
    openMessage: (entryId) => messages.open(entryId),
    openSaved: (entry, how) => openSavedChat(chats, store, entry, how),
  };
}

/** The API's chat: whichever the view shows. */
function shownChat(chats: Chats): ShownChat {
  return {
    get thread() {
      return chats.shown.thread;
    },
    get status() {
      return viewStatus(chats, chats.shown);
    },
    get permissions() {
      return chats.shown.permissions;
    },
    get composer() {
      return chats.shown.composer;
    },
    onDidChange: chats.onDidChangeShown,
    selectAgent: (agentId) => chats.selectAgent(chats.shown, agentId),
    changeControl: (change) => chats.shown.changeControl(change),
    openEarlier: () => chats.shown.openEarlier(),
    refreshAgents: () => chats.refreshAgents(),
    installAgent: (agentId) => chats.installAgent(chats.shown, agentId),
  };
}
