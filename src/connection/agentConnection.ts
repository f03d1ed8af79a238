/**
 * One started agent: its transport and ACP client, `initialize` done, shared
 * by every chat that has a session on it (agentConnections.ts). Starting
 * returns a connection or throws a message meant for the user.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import { Emitter, type Event } from '../shared/events';
import { quirksOf, type AgentQuirks } from '../agents/agentQuirks';
import { clientCapabilities, forRemoteAgent } from '../capabilities';
import type { ConnectContext, HostCapabilities, Platform, WindowPort, WorkPlace } from '../platform';
import { FileRequests } from './fileRequests';
import { AgentClient, type ClientIdentity } from './agentClient';
import type { ClientHandlers } from './clientRequests';
import { signIn, type SignedIn } from './signIn/signIn';
import type { Diagnostics } from '../diagnostics/diagnostics';
import type { AgentOs } from '../mcp/serverChecks';
import type { FileNow } from '../shared/thread/oldTexts';
import { titleText } from '../shared/text/titleText';
import { allRoots, workRoots, type WorkRoots } from './workRoots';
import { V2Wire } from './v2/wire';

/** How long a failed start waits for the agent's exit report (the client waits up to 2 s for it). */
const EXIT_REPORT_WAIT_MS = 3_000;
/** The agent's name and version as the header shows them. */
const MAX_LABEL_CHARS = 120;

const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));

export class AgentConnection {
  private readonly _onDidWarn = new Emitter<string>();
  /** Something every chat on this connection should hear: stray output, update kinds we do not know. */
  readonly onDidWarn = this._onDidWarn.event;
  /** What this agent gets wrong, known by its name (agentQuirks.ts). */
  readonly quirks: AgentQuirks;
  /** The sign-in under way: chats that are refused at once share one. */
  private signingIn: Promise<SignedIn> | undefined;

  private constructor(
    readonly agentId: string,
    readonly client: AgentClient,
    readonly init: acp.InitializeResponse,
    /** Where the agent works: its `cwd`, and the other folders it was given. */
    readonly roots: WorkRoots,
    /** The workspace folder its sessions belong to (MCP sources), when there is one. */
    readonly folder: vscode.Uri | undefined,
    /** The agent machine's kind of OS, where known (MCP server commands are checked for it). */
    readonly agentOs: AgentOs,
    /** What the host offered at `initialize`: a session's handlers must match it. */
    readonly offered: HostCapabilities,
    /** The agent's title (or name) and version, for the header. */
    readonly agentLabel: string,
    warnings: Event<string>,
    private readonly platform: Platform,
    private readonly window: WindowPort,
  ) {
    this.quirks = quirksOf(init.agentInfo?.name);
    warnings((text) => this._onDidWarn.fire(text));
    client.onDidIgnoreUpdate((kind) =>
      this._onDidWarn.fire(
        `The agent sent updates of a kind this version of the extension does not know (${JSON.stringify(kind.slice(0, 80))}): they are not shown.`,
      ),
    );
    client.onDidClose(() => this._onDidWarn.dispose());
  }

  /** The folder the agent runs in: the `cwd` of its sessions. */
  get cwd(): string {
    return this.roots.cwd;
  }

  /**
   * The text `path` has now, as the agent's own reads get it (its folders only, an editor's unsaved text first): what an
   * edit it asks about replaces (shared/oldTexts.ts). `null` when there is no such file; `undefined` where the host
   * does not read files for it; throws for a path it may not read.
   */
  async fileNow(path: string): Promise<FileNow> {
    const files = this.offered.fileRead ? this.platform.files : undefined;
    if (!files) return undefined;
    const text = await files.read(path, {}, allRoots(this.roots));
    return this.window.unsavedText(path) ?? text ?? null;
  }

  /** Asks the user to sign in the way the agent offers, and does it (one at a time); throws SignInError when it was not done. */
  signIn(): Promise<SignedIn> {
    const terminal = this.offered.signInTerminal ? this.platform.signInTerminal : undefined;
    const command = terminal?.command(this.agentId);
    this.signingIn ??= signIn({
      client: this.client,
      window: this.window,
      init: this.init,
      agentName: this.agentLabel || this.agentId,
      whereToSetEnv: (vars) => this.platform.whereToSetEnv(this.agentId, vars),
      ...(command ? { agentCommand: command } : {}),
      ...(terminal
        ? { runInTerminal: (args, env, replaceArgs) => terminal.run(this.agentId, args, env, replaceArgs) }
        : {}),
    }).finally(() => (this.signingIn = undefined));
    return this.signingIn;
  }

  /** Ends the agent's signed-in state where it offers that (`logout`). False when it does not. */
  async signOut(): Promise<boolean> {
    const logout = this.client.logout;
    if (!logout) return false;
    await logout();
    return true;
  }

  /**
   * Starts the agent and initializes it; undefined when the user cancelled
   * (a token prompt, say). Aborting `signal` ends the agent at once, even
   * while it does not answer.
   */
  static async start(
    platform: Platform,
    window: WindowPort,
    agentId: string,
    identity: ClientIdentity,
    log: vscode.LogOutputChannel,
    signal: AbortSignal,
    diagnostics?: Diagnostics,
    /** Ask for ACP v2 (`vscode-acp.protocol.v2`); an agent that answers in v1 is spoken to in v1. */
    askV2 = false,
    /** A chat's worktree, where the agent works instead of a workspace folder. */
    place?: WorkPlace,
  ): Promise<AgentConnection | undefined> {
    // Stray output comes before the connection exists: held in an emitter the connection forwards.
    const warnings = new Emitter<string>();
    const context: ConnectContext = {
      log,
      onProtocolWarning: (text) => warnings.fire(text),
      ...(place ? { place } : {}),
    };
    const transport = await platform.connect(agentId, context);
    if (!transport) return undefined;
    if (signal.aborted) {
      transport.dispose();
      return undefined;
    }
    const host = platform.capabilities();
    let offered = transport.remote ? forRemoteAgent(host) : host;
    // The extension's handlers serve no folder until the agent said how many it takes.
    let served: readonly string[] = [];
    const client = new AgentClient(
      transport,
      identity,
      log,
      connectionHandlers(platform, window, offered, log, () => served),
      diagnostics?.tap(agentId),
      askV2 ? new V2Wire() : undefined,
    );
    const abort = () => client.dispose();
    signal.addEventListener('abort', abort);
    try {
      const init = await Promise.race([client.initialize(identity, clientCapabilities(offered)), client.gone]);
      if (signal.aborted) throw new Error('cancelled');
      const info = init.agentInfo;
      // One line of the header: whatever the agent sent, cleaned and bounded.
      const said = (value: unknown) => (typeof value === 'string' ? value : '');
      const name = titleText(said(info?.title) || said(info?.name), MAX_LABEL_CHARS);
      const label = titleText([name, said(info?.version)].filter(Boolean).join(' '), MAX_LABEL_CHARS);
      if (name) context.agentName = name;
      const roots = workRoots(transport.cwd, transport.otherFolders ?? [], init);
      served = allRoots(roots);
      // A bridge that serves the editor server next to its agent (known from its initialize answer): offered after all.
      if (transport.remote) offered = forRemoteAgent(host, transport.editorRelay === true);
      return new AgentConnection(
        agentId,
        client,
        init,
        roots,
        transport.folder,
        transport.agentOs ?? platform.mcpHost.os,
        offered,
        label,
        warnings.event,
        platform,
        window,
      );
    } catch (error) {
      // A request that failed because the agent went away says only "connection closed";
      // its exit (code, stderr) says why, and comes within the client's grace period.
      const gone = client.isClosed
        ? await Promise.race([client.gone.catch((why: unknown) => why), delay(EXIT_REPORT_WAIT_MS)])
        : undefined;
      client.dispose();
      if (signal.aborted) return undefined;
      throw gone ?? error;
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }
}

/** File handlers exactly where the capabilities say we offer them; terminals are each session's; MCP-over-ACP. */
function connectionHandlers(
  platform: Platform,
  window: WindowPort,
  capabilities: HostCapabilities,
  log: vscode.LogOutputChannel,
  roots: () => readonly string[],
): ClientHandlers {
  const terminals = capabilities.terminals && platform.terminals !== undefined;
  const { elicitation } = capabilities;
  // Where the host serves the editor over ACP (the capability table offers it): `mcp/message`.
  const mcp = capabilities.editorServer && platform.mcpOverAcp ? { mcp: platform.mcpOverAcp() } : {};
  if (!platform.files || !capabilities.fileRead) return { terminals, elicitation, ...mcp };
  const files = new FileRequests(platform.files, window, log, roots);
  return {
    terminals,
    elicitation,
    ...mcp,
    readTextFile: (params) => files.read(params),
    ...(capabilities.fileWrite ? { writeTextFile: (params: acp.WriteTextFileRequest) => files.write(params) } : {}),
  };
}
