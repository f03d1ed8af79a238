/**
 * The Node host: agents are local processes, found on PATH or configured.
 */
import * as vscode from 'vscode';
import { installCommandLine, resolveAgentSettings, type AgentDefinition } from '../src/agents/agents';
import { installInTerminal, signInInTerminal } from './agents/agentInstall';
import type { McpHost } from '../src/mcp/sessionMcp';
import { readMcpSources } from '../src/mcp/mcpSources';
import type {
  AgentTransport,
  ConnectContext,
  EditorEndpoint,
  EditorServe,
  HostCapabilities,
  Platform,
  SignInTerminal,
  TerminalBackend,
  WorkPlace,
} from '../src/platform';
import { NodeCheckpoints } from './nodeCheckpoints';
import { NodeTerminals } from './nodeTerminals';
import type { AgentChoice } from '../src/shared/page/protocol';
import { pickSessionFolder, sessionFolderIfAny } from '../src/workspaceFolder';
import { WebSocket } from 'ws';
import type { WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import { openServedAgent, servedChoice } from '../src/connection/wire/standardTransport';
import { launchFor } from './agents/agentLaunch';
import { spawnAgent } from './agents/agentProcess';
import { resolveExecutable, type ResolveOptions } from './agents/resolveExecutable';
import { installedProgram } from './agents/agentStore';
import { HOST_OS } from './hostOs';
import { workspaceFile } from './paths/workspaceFile';
import { localFolders, NodeAttachmentFiles, nodeCapabilities, NodeWorkspaceFiles } from './nodeWorkspaceFiles';
import { setting } from '../src/settings/settings';
import { mayStartIn } from './agents/untrustedStart';
import { folderScope, type EditorScope } from '../src/editorServer/editorScope';
import { startEditorEndpoint } from './editorEndpoint';
import { editorMcpServer } from '../src/editorServer/editorMcp';
import { fromMcpServer } from '@agentclientprotocol/sdk/experimental/mcp-server';
import { McpOverAcpProvider, type McpRequestHandler } from '@agentclientprotocol/sdk/unstable';
import { agentFileIn } from './paths/agentFile';
import { placeOf, type WorktreeRecords } from './worktrees/worktreeRecords';

/** In an untrusted workspace, programs found in the workspace's own folders are not started. */
function resolveOptions(): ResolveOptions {
  if (vscode.workspace.isTrusted) return {};
  return {
    skipInside: (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath),
  };
}

export class NodePlatform implements Platform {
  readonly files = new NodeWorkspaceFiles();
  readonly checkpoints?: NodeCheckpoints;
  readonly attachmentFiles = new NodeAttachmentFiles();
  /** Agents run here: this machine's OS, and the extension host's environment (which the agent inherits). */
  readonly mcpHost: McpHost = { os: HOST_OS, env: (name) => process.env[name], sources: readMcpSources };
  private reportedProblems = '';
  readonly signInTerminal: SignInTerminal = {
    command: (agentId) => this.agentDefinitions().find((a) => a.id === agentId)?.command,
    run: (agentId, args, env, replaceArgs) =>
      signInInTerminal(this.definition(agentId), args, env, replaceArgs, resolveOptions()),
  };

  /** Where built-in agents are installed (the extension's global storage, agentStore.ts); none: only PATH. */
  private readonly agentStorage: string | undefined;

  /**
   * `storage`: this workspace's extension storage (none in a window without a folder: no checkpoints then);
   * `globalStorage`: the extension's own, where it installs agents.
   */
  constructor(
    storage?: vscode.Uri,
    globalStorage?: vscode.Uri,
    /** The chats' worktrees this workspace keeps (src-node/worktrees/). */
    private readonly worktrees?: WorktreeRecords,
  ) {
    if (storage?.scheme === 'file') {
      this.checkpoints = new NodeCheckpoints(storage, () => worktrees?.all().map((r) => r.path) ?? []);
    }
    this.agentStorage = globalStorage?.scheme === 'file' ? globalStorage.fsPath : undefined;
  }

  worktreeAt(cwd: string): WorkPlace | undefined {
    const record = this.worktrees?.all().find((r) => r.path === cwd);
    return record && placeOf(record);
  }

  /** The agent's program: where the extension installed it, else on PATH. */
  private async program(agent: AgentDefinition): Promise<string | undefined> {
    return (
      (await installedProgram(this.agentStorage, agent)) ??
      (await resolveExecutable(agent.command, process.env, resolveOptions()))
    );
  }

  whereToSetEnv(agentId: string, vars: readonly string[]): string {
    const configured = vars.filter((name) =>
      Object.hasOwn(this.agentDefinitions().find((a) => a.id === agentId)?.env ?? {}, name),
    );
    if (configured.length > 0) {
      return `${configured.join(', ')} ${configured.length > 1 ? 'are' : 'is'} set for this agent in the setting vscode-acp.agents, and that value is what it gets: check it there, then connect again.`;
    }
    const list = vars.join(', ');
    return `Set ${list} in the environment VS Code starts from (your shell profile, or the system's settings), restart VS Code, and connect again.`;
  }

  async listAgents(): Promise<AgentChoice[]> {
    const agents = this.agentDefinitions();
    return Promise.all(
      agents.map(async (agent) => {
        if (agent.url) return servedChoice({ ...agent, url: agent.url });
        const executable = await this.program(agent);
        return {
          id: agent.id,
          name: agent.name,
          available: executable !== undefined,
          detail: executable ? undefined : `"${agent.command}" was not found (installed here, or on PATH)`,
          ...(!executable && agent.install ? { install: installCommandLine(agent.install) } : {}),
        };
      }),
    );
  }

  installAgent(agentId: string): Promise<number | undefined | 'cancelled'> {
    if (!this.agentStorage) return Promise.reject(new Error('This window has no storage to install agents into.'));
    return installInTerminal(this.definition(agentId), this.agentStorage, resolveOptions());
  }

  capabilities(): HostCapabilities {
    return nodeCapabilities();
  }

  /** Terminals of one session, confined to the folders the agent was given (the first: where they start by default). */
  terminals(roots: readonly string[]): TerminalBackend {
    return new NodeTerminals(roots);
  }

  editorEndpoint(serve: EditorServe): Promise<EditorEndpoint> {
    return startEditorEndpoint(serve);
  }

  editorAcp(serve: EditorServe): { handler: McpRequestHandler; close(): Promise<void> } {
    return fromMcpServer(() => editorMcpServer(serve.answer, serve.groups, serve.version));
  }

  mcpOverAcp(): McpOverAcpProvider {
    return new McpOverAcpProvider();
  }

  editorScope(roots: readonly string[]): EditorScope {
    return folderScope(
      roots.map((root) => vscode.Uri.file(root).toString()),
      async (text) => {
        const found = await agentFileIn(text, roots);
        return found.ok ? { ok: true, uri: vscode.Uri.file(found.path).toString() } : found;
      },
    );
  }

  workspaceFile(agentPath: string): Promise<vscode.Uri | undefined> {
    return workspaceFile(agentPath);
  }

  async connect(agentId: string, context: ConnectContext): Promise<AgentTransport | undefined> {
    const agent = this.definition(agentId);
    if (agent.url && context.place) {
      throw new Error(
        `${agent.name} is served at an address and works where it runs: it cannot work in a worktree here.`,
      );
    }
    if (agent.url) {
      // The folder whose settings and .vscode/mcp.json the session takes; the agent works where it is served.
      const picked = await sessionFolderIfAny();
      if (!picked) return undefined;
      return openServedAgent({ ...agent, url: agent.url }, WebSocket as unknown as WebSocketConstructor, context, {
        ...(picked.folder ? { fallbackCwd: picked.folder.uri.fsPath, folder: picked.folder.uri } : {}),
      });
    }
    const executable = await this.program(agent);
    if (!executable) {
      const how = agent.install ? ` (Install runs \`${installCommandLine(agent.install)}\`, after asking)` : '';
      throw new Error(
        `"${agent.command}" was not found. Install ${agent.name}${how}, or set its path in the vscode-acp.agentPaths setting.`,
      );
    }
    const folder = context.place ? placeFolder(context.place) : await pickSessionFolder();
    if (!folder) return undefined;
    if (folder.uri.scheme !== 'file') {
      throw new Error(
        `The folder ${folder.name} is not on this machine's disk (${folder.uri.scheme}:), so a local agent cannot work in it.`,
      );
    }
    if (!(await mayStartIn(folder, agent.name))) return undefined;
    // A chat's worktree is its agent's only folder: the workspace's are the user's.
    const cwd = context.place?.path ?? folder.uri.fsPath;
    const launch = await launchFor(executable, agent.args, resolveOptions());
    const transport = spawnAgent(
      {
        executable: launch.executable,
        args: launch.args,
        cwd,
        env: { ...process.env, ...agent.env },
        label: agent.name,
      },
      context,
    );
    const otherFolders = context.place
      ? []
      : localFolders()
          .filter((f) => f.uri.toString() !== folder.uri.toString())
          .map((f) => f.uri.fsPath);
    return { ...transport, folder: folder.uri, otherFolders };
  }

  private definition(agentId: string): AgentDefinition {
    const agent = this.agentDefinitions().find((a) => a.id === agentId);
    if (!agent) throw new Error(`Unknown agent "${agentId}".`);
    return agent;
  }

  private agentDefinitions(): AgentDefinition[] {
    const { agents, problems } = resolveAgentSettings(setting('agents'), setting('agentPaths'));
    const joined = problems.join('\n');
    if (joined && joined !== this.reportedProblems) {
      void vscode.window.showWarningMessage(`Some ACP agent settings were ignored: ${problems.join('; ')}`);
    }
    this.reportedProblems = joined;
    return agents;
  }
}

/** The workspace folder a worktree is a copy of; throws when it is no longer in the workspace. */
function placeFolder(place: WorkPlace): vscode.WorkspaceFolder {
  const folder = localFolders().find((f) => f.uri.fsPath === place.folder);
  if (!folder) {
    throw new Error(
      `This chat's worktree is a copy of ${place.folder}, which is not a trusted folder of this workspace now: open that folder to continue it.`,
    );
  }
  return folder;
}
