/**
 * The pure thread reducer: `(thread, action) -> thread`.
 *
 * No I/O, no clocks, no id generation: ids come in through actions. Entries
 * that do not change keep their identity, so "which entry changed" is an
 * identity check for whoever sends patches to the view.
 */
import type { ContentBlock, SessionUpdate, StopReason, ToolCall, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { applyControlsUpdate, controlsFromSetup, type SessionControls, type SessionSetup } from './sessionControls';
import { assertNever, type DisplayBlock, type Entry, type NoticeLevel, type Thread, type ToolContent, type ToolEntry, type ToolStatus } from './thread';

/** The most of a tool's input kept for display. */
const MAX_INPUT_CHARS = 64 * 1024;

export type ThreadAction =
  /** A session started (new, loaded or resumed): its controls replace the old ones. */
  | { type: 'sessionStarted'; id: string; setup: SessionSetup }
  /** The user changed a control and the agent accepted it. */
  | { type: 'controlsChanged'; id: string; controls: SessionControls }
  /** The user sent a prompt: it is shown and a turn starts. */
  | { type: 'prompt'; id: string; text: string }
  /** One `session/update` from the agent, in arrival order. */
  | { type: 'update'; id: string; update: SessionUpdate }
  /** The `session/prompt` response arrived and its updates have drained. */
  | { type: 'turnEnded'; id: string; stopReason: StopReason }
  /** The turn ended without a stop reason (request failed, agent gone). */
  | { type: 'turnFailed'; id: string; message: string }
  | { type: 'notice'; id: string; level: NoticeLevel; text: string };

export function reduceThread(thread: Thread, action: ThreadAction): Thread {
  switch (action.type) {
    case 'sessionStarted':
      return { ...thread, controls: controlsFromSetup(action.setup) };
    case 'controlsChanged':
      return { ...thread, controls: action.controls };
    case 'prompt':
      return { ...thread, turn: 'running', plan: [], entries: [...thread.entries, { kind: 'user', id: action.id, text: action.text }] };
    case 'update':
      return applyUpdate(thread, action.id, action.update);
    case 'turnEnded':
      return endTurn(thread, action.id, stopReasonNotice(action.stopReason));
    case 'turnFailed':
      return endTurn(thread, action.id, { level: 'error', text: action.message });
    case 'notice':
      return append(thread, { kind: 'notice', id: action.id, level: action.level, text: action.text });
    default:
      return assertNever(action);
  }
}

function applyUpdate(thread: Thread, id: string, update: SessionUpdate): Thread {
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
      // Some agents echo the user's prompt back while the turn runs; the prompt
      // is already shown. Outside a turn (session/load replay) it is history.
      return thread.turn === 'running' ? thread : appendText(thread, 'user', id, contentText(update.content));
    case 'agent_message_chunk':
      return appendText(thread, 'assistant', id, contentText(update.content));
    case 'agent_thought_chunk':
      return appendText(thread, 'thought', id, contentText(update.content));
    case 'tool_call':
      return upsertToolCall(thread, id, update);
    case 'tool_call_update':
      return patchToolCall(thread, id, update);
    case 'plan':
      return { ...thread, plan: update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) };
    case 'session_info_update':
      return update.title == null ? thread : { ...thread, title: update.title };
    case 'notice':
      return append(thread, { kind: 'notice', id, level: noticeLevel(update.severity), text: update.description ? `${update.title}: ${update.description}` : update.title });
    default: {
      const controls = applyControlsUpdate(thread.controls, update);
      // Unknown kinds from newer agents (and compaction, not shown yet) are ignored, not fatal.
      return controls ? { ...thread, controls } : thread;
    }
  }
}

function append(thread: Thread, entry: Entry): Thread {
  return { ...thread, entries: [...thread.entries, entry] };
}

function replaceAt(thread: Thread, index: number, entry: Entry): Thread {
  const entries = thread.entries.slice();
  entries[index] = entry;
  return { ...thread, entries };
}

/** Chunks merge into the last entry when it is of the same kind. */
function appendText(thread: Thread, kind: 'user' | 'assistant' | 'thought', id: string, text: string): Thread {
  if (text === '') return thread;
  const lastIndex = thread.entries.length - 1;
  const last = thread.entries[lastIndex];
  if (last && last.kind === kind) {
    return replaceAt(thread, lastIndex, { ...last, text: last.text + text });
  }
  return append(thread, { kind, id, text });
}

function findTool(thread: Thread, toolCallId: string): number {
  for (let i = thread.entries.length - 1; i >= 0; i--) {
    const entry = thread.entries[i];
    if (entry.kind === 'tool' && entry.toolCallId === toolCallId) return i;
  }
  return -1;
}

function upsertToolCall(thread: Thread, id: string, call: ToolCall): Thread {
  const index = findTool(thread, call.toolCallId);
  const entry: ToolEntry = {
    kind: 'tool',
    id: index >= 0 ? thread.entries[index].id : id,
    toolCallId: call.toolCallId,
    title: call.title,
    toolKind: call.kind ?? 'other',
    status: call.status ?? 'pending',
    content: (call.content ?? []).map(toolContent),
    locations: (call.locations ?? []).map((l) => ({ path: l.path, ...(l.line != null ? { line: l.line } : {}) })),
    ...inputOf(call.kind, call.rawInput),
  };
  return index >= 0 ? replaceAt(thread, index, entry) : append(thread, entry);
}

function patchToolCall(thread: Thread, id: string, update: ToolCallUpdate): Thread {
  const index = findTool(thread, update.toolCallId);
  if (index < 0) {
    // An update for a call we never saw: show it, do not throw.
    return append(thread, {
      kind: 'tool', id, toolCallId: update.toolCallId, title: update.title ?? `Unknown tool call ${update.toolCallId}`,
      toolKind: update.kind ?? 'other', status: 'failed', locations: [],
      content: [{ type: 'content', block: { type: 'text', text: 'The agent updated a tool call it never started.' } }],
    });
  }
  const old = thread.entries[index] as ToolEntry;
  return replaceAt(thread, index, {
    ...old,
    ...(update.title != null ? { title: update.title } : {}),
    ...(update.kind != null ? { toolKind: update.kind } : {}),
    ...(update.status != null ? { status: update.status as ToolStatus } : {}),
    ...(update.content != null ? { content: update.content.map(toolContent) } : {}),
    ...(update.locations != null ? { locations: update.locations.map((l) => ({ path: l.path, ...(l.line != null ? { line: l.line } : {}) })) } : {}),
    ...(update.rawInput !== undefined ? inputOf(update.kind ?? old.toolKind, update.rawInput) : {}),
  });
}

function endTurn(thread: Thread, id: string, notice: { level: NoticeLevel; text: string } | undefined): Thread {
  let next: Thread = { ...thread, turn: 'idle', plan: [], entries: settleToolCalls(thread.entries) };
  if (thread.plan.length > 0) next = append(next, { kind: 'plan', id: `${id}:plan`, entries: [...thread.plan] });
  if (notice) next = append(next, { kind: 'notice', id, ...notice });
  return next;
}

/** Tool calls still pending or running when a turn ends will not finish: they are cancelled. */
function settleToolCalls(entries: readonly Entry[]): readonly Entry[] {
  if (!entries.some((e) => e.kind === 'tool' && (e.status === 'pending' || e.status === 'in_progress'))) return entries;
  return entries.map((e) => (e.kind === 'tool' && (e.status === 'pending' || e.status === 'in_progress') ? { ...e, status: 'cancelled' as const } : e));
}

function stopReasonNotice(reason: StopReason): { level: NoticeLevel; text: string } | undefined {
  switch (reason) {
    case 'end_turn': return undefined;
    case 'cancelled': return { level: 'info', text: 'Stopped.' };
    case 'max_tokens': return { level: 'warning', text: 'The agent stopped: it reached its token limit.' };
    case 'max_turn_requests': return { level: 'warning', text: 'The agent stopped: it reached its limit of requests for one turn.' };
    case 'refusal': return { level: 'warning', text: 'The agent refused. This prompt and everything after it will be left out of its next prompt.' };
    default: return { level: 'warning', text: `The turn ended: ${String(reason)}.` };
  }
}

function noticeLevel(severity: string): NoticeLevel {
  return severity === 'error' || severity === 'warning' ? severity : 'info';
}

/** A plain-text stand-in for a content block in a message; Markdown rendering happens in the view. */
export function contentText(block: ContentBlock): string {
  switch (block.type) {
    case 'text': return block.text;
    case 'image': return '[image]';
    case 'audio': return '[audio]';
    case 'resource_link': return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource': return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    default: return '';
  }
}

function displayBlock(block: ContentBlock): DisplayBlock {
  switch (block.type) {
    case 'text': return { type: 'text', text: block.text };
    case 'image': return { type: 'image', mimeType: block.mimeType };
    case 'audio': return { type: 'audio', mimeType: block.mimeType };
    case 'resource_link': return { type: 'resource', uri: block.uri, name: block.title ?? block.name };
    case 'resource': return { type: 'resource', uri: block.resource.uri, name: block.resource.uri, ...('text' in block.resource ? { text: block.resource.text } : {}) };
    default: return { type: 'text', text: '' };
  }
}

function toolContent(content: ToolCallContent): ToolContent {
  switch (content.type) {
    case 'content': return { type: 'content', block: displayBlock(content.content) };
    case 'diff': return { type: 'diff', path: content.path, oldText: content.oldText ?? null, newText: content.newText };
    case 'terminal': return { type: 'terminal', terminalId: content.terminalId, output: '' };
    default: return { type: 'content', block: { type: 'text', text: '' } };
  }
}

/** The command line for shell tools, pretty JSON for the rest; capped. */
function inputOf(kind: string | null | undefined, rawInput: unknown): { input?: string } {
  if (rawInput === undefined || rawInput === null) return {};
  const raw = rawInput as { command?: unknown; args?: unknown };
  let text: string;
  if (kind === 'execute' && typeof raw.command === 'string') {
    text = [raw.command, ...(Array.isArray(raw.args) ? raw.args.map(String) : [])].join(' ');
  } else {
    try {
      text = typeof rawInput === 'string' ? rawInput : JSON.stringify(rawInput, null, 2);
    } catch {
      text = String(rawInput);
    }
  }
  return { input: text.length > MAX_INPUT_CHARS ? `${text.slice(0, MAX_INPUT_CHARS)}\n… (${text.length - MAX_INPUT_CHARS} more characters)` : text };
}
