/** How each ACP tool kind and tool status looks: icon and words. */
import type { ToolStatus } from '../../src/shared/thread/thread';
import type { CodiconName } from '../shared/codicons';

interface Look {
  icon: CodiconName;
  label: string;
}

/** ACP's `ToolKind`s; agents may send others, which look like `other`. */
const kinds: Record<string, Look> = {
  read: { icon: 'eye', label: 'Read' },
  edit: { icon: 'edit', label: 'Edit' },
  delete: { icon: 'trash', label: 'Delete' },
  move: { icon: 'move', label: 'Move' },
  search: { icon: 'search', label: 'Search' },
  execute: { icon: 'terminal', label: 'Run' },
  think: { icon: 'lightbulb', label: 'Think' },
  fetch: { icon: 'globe', label: 'Fetch' },
  switch_mode: { icon: 'arrow-swap', label: 'Switch mode' },
  other: { icon: 'tools', label: 'Tool' },
};

export function kindLook(kind: string): Look {
  return Object.hasOwn(kinds, kind) ? kinds[kind]! : kinds.other!;
}

/** `spin` marks the running indicator, which stops under prefers-reduced-motion. */
export const statusLook: Record<ToolStatus, Look & { spin?: boolean }> = {
  pending: { icon: 'ellipsis', label: 'Pending' },
  in_progress: { icon: 'loading', label: 'Running', spin: true },
  completed: { icon: 'check', label: 'Completed' },
  failed: { icon: 'error', label: 'Failed' },
  cancelled: { icon: 'circle-slash', label: 'Cancelled' },
};
