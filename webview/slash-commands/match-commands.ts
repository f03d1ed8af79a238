import type { SessionControls } from '../../src/shared/page/protocol';

/** One of the agent's commands, as the menu lists it. */
export type SlashCommand = SessionControls['commands'][number];

/** Commands whose name starts with `query` first, then those that contain it; case-insensitive. */
export function matchCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}
