/**
 * What differs between hosts: how an agent is reached and what the host can
 * do. Implemented once per host in src-node/ and src-web/.
 */
import type {
  CreateTerminalRequest,
  Stream,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import type { McpHost } from './mcp/sessionMcp';
import type { AgentOs } from './mcp/serverChecks';
import type { AgentChoice } from './shared/page/protocol';
import type { FileChange, FileVersion } from './shared/changes';
import type { EditorScope } from './editorServer/editorScope';
import type { McpOverAcpProvider, McpRequestHandler } from '@agentclientprotocol/sdk/unstable';
import type { EditorTool, ToolAnswer, ToolGroup } from './editorServer/editorTools';

/** What a session's editor server serves: the tools of `groups`, each call answered by `answer`. */
export interface EditorServe {
  answer(tool: EditorTool, args: Record<string, unknown>): Promise<ToolAnswer>;
  readonly groups: ReadonlySet<ToolGroup>;
  /** The extension's version, as the server names itself. */
  readonly version: string;
}

/** A session's editor server endpoint: where the agent reaches it, with the header that lets it in. */
export interface EditorEndpoint {
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  /** Closes it: its port, and every request under way. */
  dispose(): void;
}

/** What the host really offers right now; a capability it lacks is false, not a throw. */
export interface HostCapabilities {
  readonly kind: 'node' | 'web';
  /** Serve `fs/read_text_file`: a trusted workspace with a local folder. */
  readonly fileRead: boolean;
  /** Serve `fs/write_text_file`: as reads, and only where the descriptor walk works. */
  readonly fileWrite: boolean;
  /** Serve `terminal/*`: a trusted workspace with a local folder. */
  readonly terminals: boolean;
  /** Run an agent's terminal sign-in (its own program, in a VS Code terminal): where agents are local programs. */
  readonly signInTerminal: boolean;
  /** Checkpoints of the agent's changes (the Changes bar, Undo): where the agent's files are these folders, as for writes. */
  readonly checkpoints: boolean;
  /** Questions the agent asks the user (elicitation: forms and URLs), shown in the chat: every host has the chat. */
  readonly elicitation: boolean;
  /**
   * MCP servers' `${env:NAME}` references are filled in from this machine's environment: for an agent this host
   * starts. An agent served elsewhere never gets this machine's values (a server that needs one is left out).
   */
  readonly localEnv: boolean;
  /**
   * Offer the editor server (src/editorServer/: problems, symbols, definitions...) to an agent that takes MCP over
   * HTTP: a trusted workspace with a local folder, on a host that serves it on loopback for an agent it starts.
   */
  readonly editorServer: boolean;
}

/**
 * Disk access inside the trusted local workspace folders (Node only), and of
 * those only in `roots`: the folders the agent was given (connection/workRoots.ts).
 */
export interface WorkspaceFileAccess {
  /** The file's text; undefined when there is no such file in a folder that exists (a new file). */
  read(
    path: string,
    range: { line?: number | null; limit?: number | null },
    roots: readonly string[],
  ): Promise<string | undefined>;
  write(path: string, content: string, roots: readonly string[]): Promise<void>;
}

/**
 * Reading the files a user attaches to a prompt: only files inside a trusted
 * workspace folder, read the way the host reads for agents (Node: the
 * descriptor walk, so no symlink escape).
 */
export interface AttachmentFiles {
  /**
   * The agent can open this file itself from its URI (it runs on this machine, and the file is in one of `roots`,
   * the folders it was given): a link will do.
   */
  linkable(uri: vscode.Uri, roots: readonly string[]): boolean;
  /**
   * The file's bytes, at most `maxBytes`. Throws AttachmentTooLargeError over
   * that, or an Error whose message is fit for the user.
   */
  read(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array>;
}

/** A file over the size asked for (`size` when known). */
export class AttachmentTooLargeError extends Error {
  constructor(
    message: string,
    readonly size?: number,
  ) {
    super(message);
  }
}

/** Why an agent connection ended, shown in the chat. */
export interface AgentExit {
  readonly message: string;
  /** The last lines the agent wrote to stderr, if any. */
  readonly stderrTail?: string;
  /** The connection dropped (not the agent's own exit, nor a refusal): worth reconnecting. */
  readonly lost?: boolean;
}

/** A connect attempt that failed only because the agent could not be reached (yet): worth retrying. */
export class AgentUnreachableError extends Error {}

/** A live message pipe to one agent process. */
export interface AgentTransport {
  readonly stream: Stream;
  /** The folder the agent runs in: the `cwd` of its sessions. */
  readonly cwd: string;
  /**
   * The agent runs elsewhere (served over the standard remote transport): its files are not this machine's, so it
   * is offered no file access, terminals, checkpoints or terminal sign-in, whatever the host could do.
   */
  readonly remote?: boolean;
  /** The workspace's other trusted local folders, for an agent that takes more than one (`additionalDirectories`). */
  readonly otherFolders?: readonly string[];
  /** The workspace folder the session belongs to (its settings and `.vscode/mcp.json`), when there is one. */
  readonly folder?: vscode.Uri;
  /** The agent machine's kind of OS, where the host knows it (over a bridge: its hello). */
  readonly agentOs?: AgentOs;
  /** The bridge serves the editor server next to the agent, asking this host each call (src-node/bridge/editorRelay.ts). */
  readonly editorRelay?: boolean;
  /** Resolves once when the agent is gone, for whatever reason. */
  readonly exited: Promise<AgentExit>;
  /** Ends the agent (and its process tree, where there is one). */
  dispose(): void;
}

/** A command the user is asked to allow, prepared (resolved and checked) but not started. */
export interface PreparedTerminal {
  /** Equal for identical resolved launches: the key of "always allow in this session". */
  readonly key: string;
  /** What the consent prompt shows: executable, arguments, folder, environment names. */
  readonly description: string;
  /** Gives the slot back when the user refuses. */
  release(): void;
}

/** One ACP session's terminals (Node only). Errors carry messages fit for the agent and the user. */
export interface TerminalBackend {
  prepare(request: CreateTerminalRequest): Promise<PreparedTerminal>;
  start(prepared: PreparedTerminal): Promise<string>;
  output(terminalId: string): TerminalOutputResponse;
  waitForExit(terminalId: string, signal: AbortSignal): Promise<WaitForTerminalExitResponse>;
  kill(terminalId: string): Promise<void>;
  release(terminalId: string): Promise<void>;
  onOutput(listener: (terminalId: string, data: string) => void): { dispose(): void };
  onExit(listener: (terminalId: string, status: { exitCode: number | null; signal: string | null }) => void): {
    dispose(): void;
  };
  /** Ends every process tree (disconnect, New Chat, agent change, shutdown). */
  disposeAll(): Promise<void>;
}

/** An agent's terminal sign-in (ACP `terminal` auth methods): its own program, run where the user sees it. */
export interface SignInTerminal {
  /** The agent's command as configured (a legacy method must name this program). */
  command(agentId: string): string | undefined;
  /**
   * The agent's program with its configured arguments and then `args` (or
   * `args` alone: `replaceArgs`, the legacy `_meta` form), and `env` added,
   * in a VS Code terminal, without a shell; its exit code when it closes.
   */
  run(
    agentId: string,
    args: readonly string[],
    env: Readonly<Record<string, string>>,
    replaceArgs: boolean,
  ): Promise<number | undefined>;
}

/** Where the checkpoints stood after a pass (opaque to the core): what changed since is asked by it until it is released. */
export interface CheckpointMark {
  readonly id: number;
  /** The first look at a folder was still reading its files: one the agent changes before it is read has no Undo. */
  readonly unseen?: boolean;
}

/**
 * Checkpoints of the workspace's files (Node): before a turn, a pass notes
 * every file of the trusted local folders with a copy of its bytes (a mark);
 * after it, another pass (a second mark) says what changed between. Files are
 * put back only through the descriptor walk, and only when they are still
 * what the agent left.
 */
export interface Checkpoints {
  /** Starts the first pass now (it copies every file once), so that the first prompt does not wait for it; `folders` as mark's. */
  warmUp(folders?: readonly string[]): void;
  /**
   * A pass over the trusted local folders, and a mark where it ended. `soon`: a prompt waits for it, so a folder's
   * first pass (it reads every file) is waited for only a little (the mark says `unseen` then). `folders`: only
   * these (a chat's: its agent's folders, or its worktree); none: every trusted local folder.
   */
  mark(soon?: boolean, folders?: readonly string[]): Promise<CheckpointMark>;
  /** What changed from `from` to `to` (two marks not released, `from` the earlier), in the folders both covered. */
  between(from: CheckpointMark, to: CheckpointMark): FileChange[];
  /** Gives up a mark: what changed since it is not asked for any more. */
  release(mark: CheckpointMark): void;
  /** The bytes of a kept copy; throws when it is gone or damaged. */
  copy(hash: string): Promise<Uint8Array>;
  /** Keeps a copy of `bytes` (a version made by keeping or undoing part of a change): its version, without a hash when there is no room. */
  keep(bytes: Uint8Array): Promise<FileVersion>;
  /**
   * Puts `path` back to the copy `target` (null: no file) when it is now
   * `expected` (a copy's hash; null: no file). Throws, with a message for the
   * user, when it is neither (the user changed it since) or the path is refused.
   * `dryRun`: the same checks, nothing written (a preview).
   */
  restore(
    path: string,
    expected: string | null,
    target: string | null,
    dryRun?: boolean,
  ): Promise<'restored' | 'already'>;
  /** `path` relative to its workspace folder, for display. */
  label(path: string): string;
  /** What the last pass over each folder left out (ignored, too large, no room, unreadable), as text for the user. */
  report(): string;
  /**
   * When the copies take three-quarters of their room: removes those that
   * neither the workspace's files now nor `keep()` (every chat's changes,
   * open or saved) need.
   */
  sweepIfFull(keep: () => Promise<ReadonlySet<string>>): Promise<void>;
}

/**
 * A chat's own Git worktree (issue 49, Node): its agent works there, not in the user's workspace folder. Files,
 * terminals, attachments' links, checkpoints and the Changes bar all take `path` as the one folder.
 */
export interface WorkPlace {
  /** The folder the agent works in: the worktree, or the workspace folder's place in it where that is a subfolder. */
  readonly path: string;
  /** The workspace folder (a `file:` URI's fsPath) it is a copy of: its settings and `.vscode/mcp.json` count. */
  readonly folder: string;
  /** How the chat names it: its branch, or "detached at abc1234". */
  readonly label: string;
  /** The task it was made for (Ask Several Agents): its chats are grouped under it in the list. */
  readonly task?: string;
}

export interface ConnectContext {
  readonly log: vscode.LogOutputChannel;
  /** Start the agent in this worktree, not in a workspace folder (the chat's own). */
  readonly place?: WorkPlace;
  /** Reports non-protocol output (stray stdout lines) for the chat. */
  readonly onProtocolWarning: (text: string) => void;
  /**
   * The agent's own name, once it said it (`initialize`): a transport that
   * words the agent's end itself (the bridge's) names it so, not by its command.
   */
  agentName?: string;
}

/**
 * What the chat core asks of VS Code's window: injected (views/vscodeWindow.ts
 * in the extension), so that the core needs no VS Code to run.
 */
export interface WindowPort {
  /** An error the user is told of at once (not one of a chat's lines). */
  showError(text: string): void;
  /** Whether the workspace is trusted (Restricted Mode: not). */
  trusted(): boolean;
  /** Opens `file` in a preview editor at `line` (1-based), leaving the focus where it is. */
  showFile(file: vscode.Uri, line: number | undefined): Promise<void>;
  /** The editor's text of the file at `path` when it has unsaved changes; undefined when it has none or is not open. */
  unsavedText(path: string): string | undefined;
  /** Opens an http(s) `url` outside VS Code (its external opener, which may ask first); false when it did not. */
  openExternal(url: string): Promise<boolean>;
  /**
   * Runs `task` while a notification with Cancel says `title`; Cancel aborts the task's signal (whose reason is an
   * Error saying so).
   */
  progress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** One of `items`, picked by the user; undefined when they cancel. */
  pick<T extends { readonly label: string; readonly detail?: string }>(
    items: readonly T[],
    options: { readonly title: string; readonly placeHolder: string },
  ): Promise<T | undefined>;
}

export interface Platform {
  /** Evaluated at each connect: trust and folders can change. */
  capabilities(): HostCapabilities;
  /** Present where `fileRead` can be true. */
  readonly files?: WorkspaceFileAccess;
  /** Files the user attaches to prompts. */
  readonly attachmentFiles: AttachmentFiles;
  /** The agent's machine as MCP server configs need it (its OS, `${env:...}`). */
  readonly mcpHost: McpHost;
  /** Present where `checkpoints` can be true. */
  readonly checkpoints?: Checkpoints;
  /** Present where `terminals` can be true: a new backend per session, confined to `roots` (the first: the default). */
  terminals?(roots: readonly string[]): TerminalBackend;
  /** Agents to offer in the picker. Never spawns or scans synchronously. */
  listAgents(): Promise<AgentChoice[]>;
  /**
   * Installs a built-in agent (AgentChoice.install) in a terminal the user sees, once they have seen what will run
   * and said Install; resolves with its exit code when the terminal closes, or 'cancelled'. Only where agents are
   * local programs (Node).
   */
  installAgent?(agentId: string): Promise<number | undefined | 'cancelled'>;
  /** Where agents are local programs (Node): their terminal sign-in. */
  readonly signInTerminal?: SignInTerminal;
  /** Where the user sets `vars` for the agent to read (its `env_var` sign-in): a sentence for the sign-in message. */
  whereToSetEnv(agentId: string, vars: readonly string[]): string;
  /** Present where `editorServer` can be true: the editor server on loopback HTTP for one session, until disposed. */
  editorEndpoint?(serve: EditorServe): Promise<EditorEndpoint>;
  /** Present with `editorEndpoint`: the editor server as an MCP-over-ACP handler (`mcp/message`), until closed. */
  editorAcp?(serve: EditorServe): { readonly handler: McpRequestHandler; close(): Promise<void> };
  /** Present with `editorAcp`: a connection's MCP-over-ACP provider (the SDK's; only where used: it is not small). */
  mcpOverAcp?(): McpOverAcpProvider;
  /**
   * Present with `editorEndpoint`: where a session's editor server may look (`roots`), an agent's path judged as text
   * first, then canonical (a link out of the folders is not inside).
   */
  editorScope?(roots: readonly string[]): EditorScope;
  /** Starts or reaches the agent; undefined when the user cancelled (e.g. a folder pick). */
  connect(agentId: string, context: ConnectContext): Promise<AgentTransport | undefined>;
  /**
   * The workspace file at an agent-given path, when it is a file inside a
   * trusted local workspace folder (canonical, no symlink escape); else undefined.
   */
  workspaceFile?(path: string): Promise<vscode.Uri | undefined>;
  /** The worktree a session at `cwd` worked in, while it is kept (a chat reopened after a reload goes back to it). */
  worktreeAt?(cwd: string): WorkPlace | undefined;
  /** Host-only commands (e.g. setting the bridge token). */
  registerCommands?(context: vscode.ExtensionContext): void;
}
