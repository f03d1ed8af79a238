/**
 * The Node host's terminals for one ACP session: the terminals core
 * (src-node/terminals) behind the platform's TerminalBackend interface.
 */
import type {
  CreateTerminalRequest,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import type { PreparedTerminal, TerminalBackend } from '../src/platform';
import {
  describeLaunch,
  launchKey,
  prepareLaunch,
  TerminalHost,
  type PreparedLaunch,
  type SlotReservation,
} from './terminals';

interface NodePrepared extends PreparedTerminal {
  readonly launch: PreparedLaunch;
  readonly slot: SlotReservation;
}

export class NodeTerminals implements TerminalBackend {
  private readonly host = new TerminalHost();

  /** `roots`: the folders the agent was given; commands start in the first unless they ask for another folder in one. */
  constructor(private readonly roots: readonly string[]) {}

  async prepare(request: CreateTerminalRequest): Promise<PreparedTerminal> {
    // The slot is taken before the user is asked: a 9th request fails at once.
    const slot = this.host.reserve();
    try {
      const [root = '', ...moreRoots] = this.roots;
      const launch = await prepareLaunch(request, { root, moreRoots, env: process.env });
      const prepared: NodePrepared = {
        key: launchKey(launch),
        description: describeLaunch(launch),
        launch,
        slot,
        release: () => slot.release(),
      };
      return prepared;
    } catch (error) {
      slot.release();
      throw error;
    }
  }

  start(prepared: PreparedTerminal): Promise<string> {
    const p = prepared as NodePrepared;
    return this.host.create(p.launch, p.slot);
  }

  output(terminalId: string): TerminalOutputResponse {
    return this.host.output(terminalId);
  }

  waitForExit(terminalId: string, signal: AbortSignal): Promise<WaitForTerminalExitResponse> {
    return this.host.waitForExit(terminalId, signal);
  }

  kill(terminalId: string): Promise<void> {
    return this.host.kill(terminalId);
  }

  async release(terminalId: string): Promise<void> {
    await this.host.release(terminalId);
  }

  onOutput(listener: (terminalId: string, data: string) => void): { dispose(): void } {
    return this.host.onOutput(listener);
  }

  onExit(listener: (terminalId: string, status: { exitCode: number | null; signal: string | null }) => void): {
    dispose(): void;
  } {
    return this.host.onExit((id, status) =>
      listener(id, { exitCode: status.exitCode ?? null, signal: status.signal ?? null }),
    );
  }

  disposeAll(): Promise<void> {
    return this.host.disposeAll();
  }
}
