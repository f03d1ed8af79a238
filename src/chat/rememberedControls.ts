/**
 * The user's last choice of config options, mode and model, per agent, and
 * applying them to the agent's new sessions.
 */
import type * as vscode from 'vscode';
import type { AgentClient } from '../connection/agentClient';
import { controlsFromSetup, type SessionControls } from '../shared/sessionControls';

export type ControlChange =
  | { kind: 'config'; id: string; value: string | boolean }
  | { kind: 'mode'; id: string }
  | { kind: 'model'; id: string };

interface Remembered {
  config: Record<string, string | boolean>;
  mode?: string;
  model?: string;
}

const KEY = 'vscode-acp.controlChoices';

export class RememberedControls {
  /** The working copy; the memento only persists it (no read-after-write reliance). */
  private choices: Record<string, Remembered> | undefined;

  constructor(private readonly memento: vscode.Memento) {}

  private all(): Record<string, Remembered> {
    this.choices ??= { ...this.memento.get<Record<string, Remembered>>(KEY) };
    return this.choices;
  }

  /**
   * Sends one change to the agent; resolves with how to update the controls
   * once it is accepted (applied to the controls of that moment, not to a
   * snapshot taken before the request: other updates may land meanwhile).
   */
  async apply(
    client: AgentClient,
    sessionId: string,
    change: ControlChange,
  ): Promise<(controls: SessionControls) => SessionControls> {
    switch (change.kind) {
      case 'config': {
        const configOptions = controlsFromSetup({
          configOptions: await client.setConfigOption(sessionId, change.id, change.value),
        }).configOptions;
        return (controls) => ({ ...controls, configOptions });
      }
      case 'mode':
        await client.setMode(sessionId, change.id);
        return (controls) =>
          controls.modes ? { ...controls, modes: { ...controls.modes, currentModeId: change.id } } : controls;
      case 'model':
        await client.setModel(sessionId, change.id);
        return (controls) =>
          controls.models ? { ...controls, models: { ...controls.models, currentModelId: change.id } } : controls;
    }
  }

  remember(agentId: string, change: ControlChange): void {
    const all = this.all();
    const mine: Remembered = { ...all[agentId], config: { ...all[agentId]?.config } };
    if (change.kind === 'config') mine.config = { ...mine.config, [change.id]: change.value };
    else if (change.kind === 'mode') mine.mode = change.id;
    else mine.model = change.id;
    all[agentId] = mine;
    void this.memento.update(KEY, { ...all });
  }

  /** The remembered choices that this session offers and does not have yet. */
  pending(agentId: string, controls: SessionControls): ControlChange[] {
    const mine = this.all()[agentId];
    if (!mine) return [];
    const changes: ControlChange[] = [];
    for (const option of controls.configOptions) {
      // Own keys only: an agent's option id may be "constructor".
      const value = Object.hasOwn(mine.config, option.id) ? mine.config[option.id] : undefined;
      if (value === undefined || value === option.currentValue) continue;
      const valid =
        option.type === 'boolean'
          ? typeof value === 'boolean'
          : typeof value === 'string' && option.options.some((o) => o.value === value);
      if (valid) changes.push({ kind: 'config', id: option.id, value });
    }
    if (
      mine.mode &&
      controls.modes &&
      mine.mode !== controls.modes.currentModeId &&
      controls.modes.available.some((m) => m.id === mine.mode)
    ) {
      changes.push({ kind: 'mode', id: mine.mode });
    }
    if (
      mine.model &&
      controls.models &&
      mine.model !== controls.models.currentModelId &&
      controls.models.available.some((m) => m.modelId === mine.model)
    ) {
      changes.push({ kind: 'model', id: mine.model });
    }
    return changes;
  }
}
