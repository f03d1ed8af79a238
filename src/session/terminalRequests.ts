/**
 * `terminal/*` for one agent connection: `terminal/create` asks the user
 * (unless an "always allow" grant matches the same resolved launch), then
 * starts the command without a shell. Grants live in memory only.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { TerminalBackend } from '../platform';
import type { PermissionQueue } from './permissionQueue';

const OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'this exact command, for the rest of this session', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

type OutputListener = (terminalId: string, data: string) => void;
type ExitListener = (terminalId: string, status: { exitCode: number | null; signal: string | null }) => void;

export class TerminalRequests {
  private readonly grants = new Set<string>();
  private nextPrompt = 0;
  private backend: TerminalBackend;
  private wiring: Array<{ dispose(): void }> = [];
  private readonly outputListeners = new Set<OutputListener>();
  private readonly exitListeners = new Set<ExitListener>();

  /** `makeBackend` gives a fresh backend: one per session (a disposed one refuses new terminals). */
  constructor(
    private readonly makeBackend: () => TerminalBackend,
    private readonly permissions: PermissionQueue,
  ) {
    this.backend = this.wire(makeBackend());
  }

  /** Live output, for showing in the tool calls that name the terminal. */
  onOutput(listener: OutputListener): { dispose(): void } {
    this.outputListeners.add(listener);
    return { dispose: () => this.outputListeners.delete(listener) };
  }

  onExit(listener: ExitListener): { dispose(): void } {
    this.exitListeners.add(listener);
    return { dispose: () => this.exitListeners.delete(listener) };
  }

  /** A new session replaces the old one: its processes end, its grants go, a fresh backend starts. */
  async reset(): Promise<void> {
    const old = this.backend;
    this.wiring.forEach((w) => w.dispose());
    this.backend = this.wire(this.makeBackend());
    this.revokeGrants();
    await old.disposeAll();
  }

  async create(params: acp.CreateTerminalRequest, signal: AbortSignal): Promise<acp.CreateTerminalResponse> {
    const prepared = await this.agentError(() => this.backend.prepare(params));
    if (!this.grants.has(prepared.key)) {
      const answer = await this.permissions.request(
        {
          sessionId: params.sessionId,
          toolCall: {
            toolCallId: `terminal-consent-${++this.nextPrompt}`,
            title: `Run ${params.command}`,
            kind: 'execute',
            rawInput: prepared.description,
          },
          options: OPTIONS,
        },
        undefined,
        signal,
      );
      const choice = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      if (choice !== 'allow_once' && choice !== 'allow_always') {
        prepared.release();
        throw new acp.RequestError(
          -32603,
          choice === 'cancelled'
            ? 'The request to run a command was cancelled.'
            : 'The user refused to run this command.',
        );
      }
      if (choice === 'allow_always') this.grants.add(prepared.key);
    }
    return { terminalId: await this.agentError(() => this.backend.start(prepared)) };
  }

  output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> {
    return this.agentError(async () => this.backend.output(params.terminalId));
  }

  waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse> {
    return this.agentError(() => this.backend.waitForExit(params.terminalId, signal));
  }

  async kill(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse> {
    await this.agentError(() => this.backend.kill(params.terminalId));
    return {};
  }

  async release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    await this.agentError(() => this.backend.release(params.terminalId));
    return {};
  }

  /** "Always allow" ends with the session, the agent, a cleared chat or the view. */
  revokeGrants(): void {
    this.grants.clear();
  }

  /** Ends every process tree and forgets the grants. */
  async dispose(): Promise<void> {
    this.revokeGrants();
    this.wiring.forEach((w) => w.dispose());
    this.outputListeners.clear();
    this.exitListeners.clear();
    await this.backend.disposeAll();
  }

  private wire(backend: TerminalBackend): TerminalBackend {
    this.wiring = [
      backend.onOutput((id, data) => this.outputListeners.forEach((l) => l(id, data))),
      backend.onExit((id, status) => this.exitListeners.forEach((l) => l(id, status))),
    ];
    return backend;
  }

  /** The backend's errors are written for the agent: pass their message on as a JSON-RPC error. */
  private async agentError<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if (error instanceof acp.RequestError) throw error;
      throw new acp.RequestError(-32603, error instanceof Error ? error.message : String(error));
    }
  }
}
