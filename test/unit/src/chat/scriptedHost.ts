/**
 * The chat core (Chats, Chat, the agent-process pool) in plain Node, talking
 * to the real scripted test agent (test/agent, the SDK's agent side) over an
 * in-memory message stream pair: no VS Code, no process, no fake agent. What
 * the host offers is as little as a host can offer (no files, terminals or
 * checkpoints); the window is a recorder; each "process" is one agent
 * instance on its own pair of streams, ended by `crash` or `drop`.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { AgentList } from '../../../../src/agents/agentList';
import { Chats } from '../../../../src/chats/chats';
import type { Chat } from '../../../../src/chat/chat';
import type { Archive } from '../../../../src/chat/chatTranscript';
import { RememberedControls } from '../../../../src/chat/rememberedControls';
import { AgentConnections } from '../../../../src/connection/agentConnections';
import type { AgentExit, AgentTransport, ConnectContext, Platform, WindowPort } from '../../../../src/platform';
import { createAgent } from '../../../agent/agent';
import { loadScenario } from '../../../agent/scenario';
import { threadToMarkdown } from '../../../../src/shared/threadMarkdown';
import { SessionStore } from '../../../agent/sessionStore';
import type { EditorPort } from '../../../../src/editorServer/editorPort';
import { folderScope } from '../../../../src/editorServer/editorScope';
import { TOOL_GROUPS, type ToolGroup } from '../../../../src/editorServer/editorTools';
import { startEditorEndpoint } from '../../../../src-node/editorEndpoint';
import { editorMcpServer } from '../../../../src/editorServer/editorMcp';
import { fromMcpServer } from '@agentclientprotocol/sdk/experimental/mcp-server';
import { McpOverAcpProvider } from '@agentclientprotocol/sdk/unstable';
import type { EditorServe } from '../../../../src/platform';

export const AGENT_ID = 'scripted';

/** One agent instance on its own stream pair: what a process is to the host. */
export interface AgentInstance {
  /** The agent ends on its own (a crash): the chats on it say so. */
  crash(message: string): void;
  /** The connection drops (not the agent's doing): the chats on it reconnect. */
  drop(): void;
}

export interface ScriptedHost {
  readonly chats: Chats;
  /** Every agent instance started, oldest first. */
  readonly instances: AgentInstance[];
  /** What the window was asked to show as an error. */
  readonly errors: string[];
  /** The URLs the window was asked to open outside VS Code. */
  readonly opened: string[];
  /** The titles of the progress notifications shown (with Cancel), oldest first. */
  readonly progress: string[];
  /** Presses Cancel on every progress notification still shown. */
  cancelProgress(): void;
  /** A new chat with the scripted agent, connected. */
  connectedChat(): Promise<Chat>;
  /** A new chat, not connected, once the agent list is read. */
  newChat(): Promise<Chat>;
  dispose(): Promise<void>;
}

/** A memento in memory (VS Code's global state, as the host would give it). */
export function memento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
  } as vscode.Memento;
}

/** A log that keeps its lines (what the ACP output channel would show). */
function log(lines: string[]): vscode.LogOutputChannel {
  const keep = (level: string) => (message: unknown) => void lines.push(`${level} ${String(message)}`);
  return {
    trace: keep('trace'),
    debug: keep('debug'),
    info: keep('info'),
    warn: keep('warn'),
    error: keep('error'),
  } as unknown as vscode.LogOutputChannel;
}

/** A pipe of messages, one way. */
function pipe(): TransformStream<acp.AnyMessage, acp.AnyMessage> {
  return new TransformStream<acp.AnyMessage, acp.AnyMessage>();
}

export interface HostOptions {
  /** The agent keeps its sessions in a folder (as over stdio with --sessions), so that a later "process" can load them. */
  readonly keepsSessions?: boolean;
  /** False: the host finds no agent. */
  readonly installed?: boolean;
  /** The workspace is trusted (default: Restricted Mode, as the host offers no files anyway). */
  readonly trusted?: boolean;
  /** The host offers agents file reads (it has none to give unless `files`: a read fails). */
  readonly fileRead?: boolean;
  /** The workspace's files, by absolute path, for the host's reads (with `fileRead`); any other path there is new. */
  readonly files?: Readonly<Record<string, string>>;
  /** The host finds a second agent, OTHER_AGENT_ID (the same script). */
  readonly otherAgent?: boolean;
  /** Chat ids given out before (a window reloaded): new chats are numbered after them. */
  readonly idsUsed?: number;
  /** The workspace's other folders (a multi-root workspace), besides the agent's cwd `/scripted/workspace`. */
  readonly otherFolders?: readonly string[];
  /** The user picks the first item of every quick pick (default: they cancel). */
  readonly pickFirst?: boolean;
  /** How the agent is reached instead of the in-memory pipe (the standard transport's tests); its scenario unused. */
  readonly connect?: (context: ConnectContext) => Promise<AgentTransport>;
  /** Agents are asked for ACP v2 (`vscode-acp.protocol.v2`). */
  readonly askV2?: boolean;
  /** Every log line, as written (what the ACP output channel would show). */
  readonly logLines?: string[];
  /** The host serves the editor server (the Node host's loopback endpoint), answering from this editor. */
  readonly editor?: EditorPort;
  /** The tool groups left on (default all). */
  readonly editorGroups?: readonly ToolGroup[];
}

export const OTHER_AGENT_ID = 'other';

export function scriptedHost(
  scenario: object,
  {
    keepsSessions = false,
    installed = true,
    trusted = false,
    fileRead = false,
    files,
    otherAgent = false,
    idsUsed = 0,
    otherFolders = [],
    pickFirst = false,
    connect,
    askV2 = false,
    logLines = [],
    editor,
    editorGroups = TOOL_GROUPS,
  }: HostOptions = {},
): ScriptedHost {
  const parsed = loadScenario(JSON.stringify(scenario));
  const sessionsDir = keepsSessions ? fs.mkdtempSync(path.join(os.tmpdir(), 'acp-unit-sessions-')) : undefined;
  const instances: AgentInstance[] = [];
  const errors: string[] = [];
  const opened: string[] = [];
  const progress: string[] = [];
  const shownProgress = new Set<AbortController>();
  const lines = logLines;
  const platform: Platform = {
    capabilities: () => ({
      kind: 'node',
      fileRead,
      fileWrite: false,
      terminals: false,
      signInTerminal: false,
      checkpoints: false,
      elicitation: true,
      localEnv: true,
      editorServer: editor !== undefined,
    }),
    attachmentFiles: {
      linkable: () => false,
      read: () => Promise.reject(new Error('no files here')),
    },
    mcpHost: { os: 'posix', env: () => undefined, sources: async () => [] },
    ...(files
      ? {
          files: {
            read: async (path: string, _range: object, roots: readonly string[]) => {
              if (!roots.some((root) => path.startsWith(`${root}/`))) {
                throw new Error(`${path} is outside the workspace`);
              }
              return files[path];
            },
            write: () => Promise.reject(new Error('read-only here')),
          },
        }
      : {}),
    listAgents: async () => [
      ...(installed ? [{ id: AGENT_ID, name: 'Scripted Agent', available: true }] : []),
      ...(otherAgent ? [{ id: OTHER_AGENT_ID, name: 'Other Agent', available: true }] : []),
    ],
    whereToSetEnv: () => 'in the environment',
    ...(editor
      ? {
          editorEndpoint: startEditorEndpoint,
          mcpOverAcp: () => new McpOverAcpProvider(),
          editorAcp: (serve: EditorServe) =>
            fromMcpServer(() => editorMcpServer(serve.answer, serve.groups, serve.version)),
          // The folders are not on disk here: paths are judged by their text alone.
          editorScope: (roots: readonly string[]) =>
            folderScope(
              roots.map((root) => `file://${root}`),
              async (text) => {
                const full = path.posix.normalize(text.startsWith('/') ? text : `${roots[0]}/${text}`);
                return { ok: true, uri: `file://${full}` };
              },
            ),
        }
      : {}),
    connect: async (_agentId, context) => (connect ? connect(context) : start(context)),
  };
  const window: WindowPort = {
    showError: (text) => void errors.push(text),
    trusted: () => trusted,
    showFile: async () => undefined,
    unsavedText: () => undefined,
    openExternal: async (url) => (opened.push(url), true),
    pick: async (items) => (pickFirst ? items[0] : undefined),
    progress: async (title, task) => {
      progress.push(title);
      const cancel = new AbortController();
      shownProgress.add(cancel);
      try {
        return await task(cancel.signal);
      } finally {
        shownProgress.delete(cancel);
      }
    },
  };

  /** An agent process: in `/scripted/workspace`, or in the chat's worktree (`context.place`: its only folder). */
  function start(context: ConnectContext): AgentTransport {
    const toAgent = pipe();
    const toClient = pipe();
    const agent = createAgent(parsed, sessionsDir ? new SessionStore(sessionsDir) : undefined).connect({
      readable: toAgent.readable,
      writable: toClient.writable,
    });
    let exit: (why: AgentExit) => void = () => undefined;
    const exited = new Promise<AgentExit>((resolve) => (exit = resolve));
    const end = (why: AgentExit) => {
      exit(why);
      void toAgent.writable.abort().catch(() => undefined);
      void toClient.writable.abort().catch(() => undefined);
    };
    void agent.closed.then(() => exit({ message: 'the agent closed its connection' }));
    instances.push({
      crash: (message) => end({ message, stderrTail: message }),
      drop: () => end({ message: 'The connection to the agent dropped.', lost: true }),
    });
    return {
      stream: { readable: toClient.readable, writable: toAgent.writable },
      cwd: context.place?.path ?? '/scripted/workspace',
      otherFolders: context.place ? [] : otherFolders,
      exited,
      dispose: () => end({ message: 'ended by the client' }),
    };
  }

  const state = memento();
  const logger = log(lines);
  const identity = { name: 'vscode-acp-unit', version: '0' };
  const agents = new AgentConnections(platform, window, identity, logger, undefined, () => askV2);
  const agentList = new AgentList(platform, state, logger, () => undefined);
  /** Keeps every entry in memory: the unit chats stay far below the transcript's bound. */
  const archive = (): Archive => ({
    keepWithinBound: (thread) => thread,
    open: async () => undefined,
    clear: () => undefined,
    dispose: () => undefined,
  });
  const chats = new Chats(
    {
      platform,
      agents,
      agentList,
      choices: new RememberedControls(state),
      log: logger,
      window,
      prepareAttachment: () => Promise.reject(new Error('no attachments here')),
      ...(editor
        ? { editorServer: { editor, version: '0', groups: () => new Set(editorGroups), toldNoHttp: new Set<string>() } }
        : {}),
    },
    archive,
    idsUsed,
  );
  return {
    chats,
    instances,
    errors,
    opened,
    progress,
    cancelProgress: () => shownProgress.forEach((c) => c.abort(new Error('cancelled by the user'))),
    async newChat() {
      await chats.refreshAgents();
      return chats.newChat();
    },
    async connectedChat() {
      await chats.refreshAgents();
      const chat = chats.newChat();
      chat.selectAgent(AGENT_ID);
      if (!(await chat.connect())) throw new Error(`the scripted agent did not connect:\n${lines.join('\n')}`);
      return chat;
    },
    async dispose() {
      for (const chat of [...chats.all]) await chats.close(chat.id);
      agents.dispose();
      chats.dispose();
      if (sessionsDir) fs.rmSync(sessionsDir, { recursive: true, force: true });
    },
  };
}

/** The thread as the user reads it. */
export const shown = (chat: Chat): string => threadToMarkdown(chat.thread);

/** Waits until `check` holds (polled), or fails naming `what`. */
export async function until(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
