/**
 * The models a session offers, as changes a chat can be given (Ask Several Agents offers the same agent once per
 * model): the select config option of category `model` (or id `model`), else the legacy `models`.
 */
import type { SessionControls } from '../shared/sessionControls';
import type { ControlChange } from './rememberedControls';

export interface ModelChoice {
  readonly name: string;
  readonly change: ControlChange;
}

/** At most this many models of one agent are offered (an agent of many providers lists hundreds). */
export const MAX_MODEL_CHOICES = 20;

export function modelChoices(controls: SessionControls, max = MAX_MODEL_CHOICES): ModelChoice[] {
  const selects = controls.configOptions.flatMap((o) => (o.type === 'select' ? [o] : []));
  const option = selects.find((o) => o.category === 'model') ?? selects.find((o) => o.id === 'model');
  if (option) {
    return option.options
      .slice(0, max)
      .map((o) => ({ name: o.name, change: { kind: 'config', id: option.id, value: o.value } }));
  }
  return (controls.models?.available ?? [])
    .slice(0, max)
    .map((m) => ({ name: m.name, change: { kind: 'model', id: m.modelId } }));
}

/** Whether two changes set the same control (another value of it). */
export function sameControl(a: ControlChange, b: ControlChange): boolean {
  return a.kind === b.kind && (a.kind !== 'config' || a.id === b.id);
}
