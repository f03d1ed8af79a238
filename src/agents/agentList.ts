/**
 * The agents the picker offers and which one is selected (remembered across
 * windows), and installing one when the user asks. What connecting to the
 * selected agent means is the chat controller's business.
 */
import type * as vscode from 'vscode';
import type { Platform } from '../platform';
import type { AgentChoice } from '../shared/page/protocol';
import { errorMessage } from '../errorText';

const LAST_AGENT_KEY = 'vscode-acp.lastAgent';

export class AgentList {
  private list: AgentChoice[] = [];
  private selected: string | undefined;

  constructor(
    private readonly platform: Platform,
    private readonly memento: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    /** The vscode-acp.defaultAgent setting, read at each refresh. */
    private readonly defaultAgent: () => string | undefined,
  ) {
    this.selected = memento.get<string>(LAST_AGENT_KEY);
  }

  get agents(): AgentChoice[] {
    return this.list;
  }

  get selectedId(): string | undefined {
    return this.selected;
  }

  name(agentId: string): string {
    return this.list.find((a) => a.id === agentId)?.name ?? agentId;
  }

  /** Re-reads the list (settings, PATH, bridge); keeps the selection if it still exists, else the default, else the first available. */
  async refresh(): Promise<void> {
    try {
      this.list = await this.platform.listAgents();
    } catch (error) {
      this.log.error(`Listing agents failed: ${errorMessage(error)}`);
      this.list = [];
    }
    const configured = this.defaultAgent();
    const known = (id: string | undefined) => id !== undefined && this.list.some((a) => a.id === id);
    if (!known(this.selected)) {
      this.selected = known(configured) ? configured : (this.list.find((a) => a.available) ?? this.list[0])?.id;
    }
  }

  /** Selects a listed agent and remembers it; false when it is already selected or not listed. */
  select(agentId: string): boolean {
    if (agentId === this.selected || !this.list.some((a) => a.id === agentId)) return false;
    this.selected = agentId;
    void this.memento.update(LAST_AGENT_KEY, agentId);
    return true;
  }

  /**
   * Runs the agent's install command in a terminal (the user asked), then
   * looks for it again. Returns what to tell the user, or undefined when
   * the agent has nothing to install here.
   */
  async install(agentId: string): Promise<{ level: 'info' | 'warning' | 'error'; text: string } | undefined> {
    const agent = this.list.find((a) => a.id === agentId);
    if (!agent?.install || !this.platform.installAgent) return undefined;
    let exitCode: number | undefined | 'cancelled';
    try {
      exitCode = await this.platform.installAgent(agentId);
    } catch (error) {
      return { level: 'error', text: `Could not install ${agent.name}: ${errorMessage(error)}` };
    }
    if (exitCode === 'cancelled') return undefined;
    await this.refresh();
    if (this.list.find((a) => a.id === agentId)?.available) {
      return { level: 'info', text: `${agent.name} is installed: Connect to start it.` };
    }
    return {
      level: 'warning',
      text: `${agent.name} was not found after \`${agent.install}\`${exitCode === undefined ? '' : ` (exit code ${exitCode})`}: see its terminal.`,
    };
  }
}
