/**
 * Subagents in the thread: what a subagent does is shown inside the tool call
 * that started it, not among the main agent's entries. Claude Code's adapter
 * stamps each update of a subagent (its tool calls and, where the client asks
 * for the subagent's transcript, its text and thinking) with the id of that
 * tool call in `_meta.claudeCode.parentToolUseId`; a later update of a child
 * tool call may come without it and still belongs there. Updates whose
 * parent is not a tool call of this thread stay where they are (top level).
 */
import type { SessionUpdate, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ChildEntry, Thread, ToolEntry } from './thread';
import { agentIdOf, contentText } from './messageEntries';
import { patchToolEntry, toolEntryFromCall, toolEntryFromUpdate } from './toolCalls';

/** Most entries kept under one tool call: older ones go (and are counted) past this. */
export const MAX_CHILDREN = 300;
/** Most characters of one child message: a subagent's answer is read in its parent's card, not a document. */
export const MAX_CHILD_TEXT_CHARS = 64 * 1024;
/**
 * Most characters all of a call's children hold (text, inputs, diffs, output): the parent entry goes to the view
 * whole at each update, so past this the oldest children go (and are counted), the newest always stays.
 */
export const MAX_CHILDREN_CHARS = 2 * 1024 * 1024;

/** The tool call a subagent's update belongs to, if the agent said. */
export function parentToolCallOf(meta: unknown): string | undefined {
  return agentIdOf(
    (meta as { claudeCode?: { parentToolUseId?: unknown } } | null | undefined)?.claudeCode?.parentToolUseId,
  );
}

/** `update` put under the tool call of its subagent; undefined when it is not a subagent's (or its parent is not here). */
export function applySubagentUpdate(thread: Thread, id: string, update: SessionUpdate): Thread | undefined {
  switch (update.sessionUpdate) {
    case 'tool_call':
    case 'tool_call_update': {
      const parent = parentToolCallOf(update._meta);
      const at = parentIndex(thread, parent, update.toolCallId);
      if (at < 0) return undefined;
      // A call shown at the top before the agent said whose it is (a permission asked first) moves under its parent.
      const shown = parent === undefined ? -1 : topLevelTool(thread, update.toolCallId);
      const moved = shown >= 0 ? (thread.entries[shown] as ToolEntry) : undefined;
      const from = moved ? { ...thread, entries: thread.entries.filter((_, i) => i !== shown) } : thread;
      return withChildren(from, shown >= 0 && shown < at ? at - 1 : at, (children) =>
        upsertChildTool(moved ? [...children, withoutChildren(moved)] : children, id, update),
      );
    }
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const at = parentIndex(thread, parentToolCallOf(update._meta));
      if (at < 0) return undefined;
      const kind = update.sessionUpdate === 'agent_message_chunk' ? 'assistant' : 'thought';
      return withChildren(thread, at, (children) => appendChildText(children, id, kind, contentText(update.content)));
    }
    default:
      return undefined;
  }
}

/** A child whose parent stops (the turn ended, or was stopped) stops too. */
export function settleChildren(entry: ToolEntry): ToolEntry {
  if (!entry.children?.some((c) => c.kind === 'tool' && (c.status === 'pending' || c.status === 'in_progress'))) {
    return entry;
  }
  return {
    ...entry,
    children: entry.children.map((c) =>
      c.kind === 'tool' && (c.status === 'pending' || c.status === 'in_progress')
        ? { ...c, status: 'cancelled' as const }
        : c,
    ),
  };
}

/**
 * The top-level tool entry whose subagent the update is of: the one `parent` names, or the one holding `parent` as
 * a child (a subagent's own subagent joins the first: one level is shown); without `parent`, the one that already
 * holds the child call `childCall`. A parent that is the call itself, or held under it (the agent gave a cycle:
 * A's parent B, B's parent A), is refused: the update goes where the call already is.
 */
function parentIndex(thread: Thread, parent: string | undefined, childCall?: string): number {
  const holds = (e: ToolEntry, call: string) => !!e.children?.some((c) => isTool(c, call));
  const holder = () =>
    childCall === undefined ? -1 : thread.entries.findIndex((e) => e.kind === 'tool' && holds(e, childCall));
  if (parent === undefined || parent === childCall) return holder();
  const direct = topLevelTool(thread, parent);
  const at = direct >= 0 ? direct : thread.entries.findIndex((e) => e.kind === 'tool' && holds(e, parent));
  const found = thread.entries[at];
  return found?.kind === 'tool' && found.toolCallId === childCall ? holder() : at;
}

function topLevelTool(thread: Thread, toolCallId: string): number {
  return thread.entries.findIndex((e) => e.kind === 'tool' && e.toolCallId === toolCallId);
}

/** About how many characters a child holds (what makes its parent's entry large). */
function weight(entry: ChildEntry): number {
  if (entry.kind !== 'tool') return entry.text.length;
  let chars = entry.title.length + (entry.input?.length ?? 0);
  for (const c of entry.content) {
    if (c.type === 'diff') chars += (c.oldText?.length ?? 0) + c.newText.length + (c.hunks?.length ?? 0) * 80;
    else if (c.type === 'terminal') chars += c.output.length;
    else chars += 'text' in c.block && typeof c.block.text === 'string' ? c.block.text.length : 64;
  }
  return chars;
}

function isTool(entry: ChildEntry, toolCallId: string): boolean {
  return entry.kind === 'tool' && entry.toolCallId === toolCallId;
}

function withChildren(thread: Thread, at: number, change: (children: ChildEntry[]) => ChildEntry[]): Thread {
  const parent = thread.entries[at] as ToolEntry;
  let children = change([...(parent.children ?? [])]);
  const before = children.length;
  if (children.length > MAX_CHILDREN) children = children.slice(children.length - MAX_CHILDREN);
  let total = children.reduce((sum, c) => sum + weight(c), 0);
  let first = 0;
  while (total > MAX_CHILDREN_CHARS && first < children.length - 1) total -= weight(children[first++]!);
  children = children.slice(first);
  const cut = (parent.childrenCut ?? 0) + (before - children.length);
  const entries = thread.entries.slice();
  entries[at] = { ...parent, children, ...(cut > 0 ? { childrenCut: cut } : {}) };
  return { ...thread, entries };
}

function upsertChildTool(
  children: ChildEntry[],
  id: string,
  update: (ToolCall & { sessionUpdate: 'tool_call' }) | (ToolCallUpdate & { sessionUpdate: 'tool_call_update' }),
): ChildEntry[] {
  const at = children.findIndex((c) => isTool(c, update.toolCallId));
  const old = at >= 0 ? (children[at] as ToolEntry) : undefined;
  const next = withoutChildren(
    update.sessionUpdate === 'tool_call'
      ? toolEntryFromCall(old?.id ?? id, update, old)
      : old
        ? patchToolEntry(old, update)
        : toolEntryFromUpdate(id, update),
  );
  if (at >= 0) children[at] = next;
  else children.push(next);
  return children;
}

function appendChildText(
  children: ChildEntry[],
  id: string,
  kind: 'assistant' | 'thought',
  text: string,
): ChildEntry[] {
  if (text === '') return children;
  const last = children[children.length - 1];
  if (last?.kind === kind) {
    if (last.text.length >= MAX_CHILD_TEXT_CHARS) return children;
    children[children.length - 1] = { ...last, text: (last.text + text).slice(0, MAX_CHILD_TEXT_CHARS) };
    return children;
  }
  children.push({ kind, id, text: text.slice(0, MAX_CHILD_TEXT_CHARS) });
  return children;
}

/** A child call is one level deep: whatever children it claimed are not kept. */
function withoutChildren(entry: ToolEntry): ChildEntry {
  const { children: _children, childrenCut: _cut, ...rest } = entry;
  return rest;
}
