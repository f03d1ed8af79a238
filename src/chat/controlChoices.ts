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

export class ControlChoices {
  constructor(private readonly memento: vscode.Memento) {}

  /** Sends one change to the agent and returns the controls as they are afterwards. */
  async apply(client: AgentClient, sessionId: string, controls: SessionControls, change: ControlChange): Promise<SessionControls> {
    switch (change.kind) {
      case 'config': {
        const configOptions = await client.setConfigOption(sessionId, change.id, change.value);
        return { ...controls, configOptions: controlsFromSetup({ configOptions }).configOptions };
      }
      case 'mode':
        await client.setMode(sessionId, change.id);
        return controls.modes ? { ...controls, modes: { ...controls.modes, currentModeId: change.id } } : controls;
      case 'model':
        await client.setModel(sessionId, change.id);
        return controls.models ? { ...controls, models: { ...controls.models, currentModelId: change.id } } : controls;
    }
  }

  remember(agentId: string, change: ControlChange): void {
    const all = this.memento.get<Record<string, Remembered>>(KEY) ?? {};
    const mine: Remembered = { ...all[agentId], config: { ...all[agentId]?.config } };
    if (change.kind === 'config') mine.config = { ...mine.config, [change.id]: change.value };
    else if (change.kind === 'mode') mine.mode = change.id;
    else mine.model = change.id;
    void this.memento.update(KEY, { ...all, [agentId]: mine });
  }

  /** The remembered choices that this session offers and does not have yet. */
  pending(agentId: string, controls: SessionControls): ControlChange[] {
    const mine = this.memento.get<Record<string, Remembered>>(KEY)?.[agentId];
    if (!mine) return [];
    const changes: ControlChange[] = [];
    for (const option of controls.configOptions) {
      const value = mine.config[option.id];
      if (value === undefined || value === option.currentValue) continue;
      const valid = option.type === 'boolean' ? typeof value === 'boolean' : typeof value === 'string' && option.options.some((o) => o.value === value);
      if (valid) changes.push({ kind: 'config', id: option.id, value });
    }
    if (mine.mode && controls.modes && mine.mode !== controls.modes.currentModeId && controls.modes.available.some((m) => m.id === mine.mode)) {
      changes.push({ kind: 'mode', id: mine.mode });
    }
    if (mine.model && controls.models && mine.model !== controls.models.currentModelId && controls.models.available.some((m) => m.modelId === mine.model)) {
      changes.push({ kind: 'model', id: mine.model });
    }
    return changes;
  }
}
