/**
 * What differs between hosts: how an agent is reached and what the host can
 * do. Implemented once per host in src-node/ and src-web/.
 */
import type { Stream } from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import type { AgentChoice } from './shared/protocol';

/** What the host really offers right now; a capability it lacks is false, not a throw. */
export interface HostCapabilities {
  readonly kind: 'node' | 'web';
  /** Serve `fs/read_text_file`: a trusted workspace with a local folder. */
  readonly fileRead: boolean;
  /** Serve `fs/write_text_file`: as reads, and only where the descriptor walk works. */
  readonly fileWrite: boolean;
  /** Serve `terminal/*`: a trusted workspace with a local folder. */
  readonly terminals: boolean;
}

/** Disk access inside the trusted local workspace folders (Node only). */
export interface WorkspaceFileAccess {
  read(path: string, range: { line?: number | null; limit?: number | null }): Promise<string>;
  write(path: string, content: string): Promise<void>;
}

/** Why an agent connection ended, shown in the chat. */
export interface AgentExit {
  readonly message: string;
  /** The last lines the agent wrote to stderr, if any. */
  readonly stderrTail?: string;
}

/** A live message pipe to one agent process. */
export interface AgentTransport {
  readonly stream: Stream;
  /** The folder the agent runs in: the `cwd` of its sessions. */
  readonly cwd: string;
  /** Resolves once when the agent is gone, for whatever reason. */
  readonly exited: Promise<AgentExit>;
  /** Ends the agent (and its process tree, where there is one). */
  dispose(): void;
}

export interface ConnectContext {
  readonly log: vscode.LogOutputChannel;
  /** Reports non-protocol output (stray stdout lines) for the chat. */
  readonly onProtocolWarning: (text: string) => void;
}

export interface Platform {
  /** Evaluated at each connect: trust and folders can change. */
  capabilities(): HostCapabilities;
  /** Present where `fileRead` can be true. */
  readonly files?: WorkspaceFileAccess;
  /** Agents to offer in the picker. Never spawns or scans synchronously. */
  listAgents(): Promise<AgentChoice[]>;
  /** Starts or reaches the agent; undefined when the user cancelled (e.g. a folder pick). */
  connect(agentId: string, context: ConnectContext): Promise<AgentTransport | undefined>;
  /**
   * The workspace file at an agent-given path, when it is a file inside a
   * trusted local workspace folder (canonical, no symlink escape); else undefined.
   */
  workspaceFile?(path: string): Promise<vscode.Uri | undefined>;
  /** Host-only commands (e.g. setting the bridge token). */
  registerCommands?(context: vscode.ExtensionContext): void;
}
