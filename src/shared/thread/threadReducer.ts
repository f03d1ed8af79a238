/**
 * The pure thread reducer: `(thread, action) -> thread`.
 *
 * No I/O, no clocks, no id generation: ids come in through actions. Entries
 * that do not change keep their identity, so "which entry changed" is an
 * identity check for whoever sends patches to the view.
 */
import { appendToRun } from './entryRuns';
import { leftOutOf } from '../leftOut';
import { boundedSteps, MAX_PLAN_ENTRY_CHARS, planOperationOf, withPlanOperation } from './planOperations';
import type { SessionUpdate, StopReason, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { applyControlsUpdate, controlsFromSetup, type SessionControls, type SessionSetup } from '../sessionControls';
import {
  assertNever,
  type Entry,
  type NoticeAction,
  type NoticeLevel,
  type TerminalState,
  type Thread,
  type ToolEntry,
} from './thread';
import {
  capOutput,
  fillTerminals,
  keepOldTexts,
  patchToolEntry,
  showTerminal,
  toolEntryFromCall,
  toolEntryFromUpdate,
} from './toolCalls';
import { cutText, titleText } from '../text/titleText';
import type { SentAttachment } from '../attachments';
import type { EditorCall } from '../editorCalls';
import { applyCompactionChunk, applyCompactionUpdate } from './compaction';
import { applySubagentUpdate, settleChildren } from './subagents';
import { suggestionsOf } from './promptSuggestions';
import {
  agentIdOf,
  append,
  appendText,
  applyChunk,
  attachToUser,
  editorCalled,
  replaceAt,
  userEntry,
  replayedAttachment,
} from './messageEntries';

export type ThreadAction =
  /** A session started (new, loaded or resumed): its controls replace the old ones. */
  | { type: 'sessionStarted'; id: string; setup: SessionSetup }
  /** The user changed a control and the agent accepted it. */
  | { type: 'controlsChanged'; id: string; controls: SessionControls }
  /** The user sent a prompt: it is shown and a turn starts. */
  | { type: 'prompt'; id: string; text: string; attachments?: readonly SentAttachment[] }
  /** A message on its way into the running turn (Steer): shown where it goes in; the turn goes on. */
  | { type: 'steered'; id: string; text: string; attachments?: readonly SentAttachment[] }
  /** The agent did not take that message (it goes back to the queue): it leaves the transcript. */
  | { type: 'steerRefused'; entryId: string }
  /** Edit or Retry of a prompt (chat/rewindCut.ts): only the first `keep` entries stay; not while a turn runs. */
  | { type: 'cut'; keep: number }
  /** One `session/update` from the agent, in arrival order. */
  | { type: 'update'; id: string; update: SessionUpdate }
  /** The `session/prompt` response arrived and its updates have drained. */
  | { type: 'turnEnded'; id: string; stopReason: StopReason }
  /** The turn ended without a stop reason (request failed, agent gone). */
  | { type: 'turnFailed'; id: string; message: string }
  /** The user pressed Stop: the agent is asked to cancel the running turn. */
  | { type: 'stopping' }
  /** The agent asked the editor server something (shared/editorCalls.ts). */
  | { type: 'editorCall'; id: string; call: EditorCall }
  | {
      type: 'notice';
      id: string;
      level: NoticeLevel;
      text: string;
      action?: NoticeAction;
      replaced?: { agentId: string; sessionId: string };
    }
  /** A permission prompt showed the call's edits against the files as they were (shared/oldTexts.ts): so does its card. */
  | { type: 'oldTextsRead'; toolCallId: string; content: ToolEntry['content'] }
  /** The user named the chat: `title` (the agent's stored form where it took it) stays until the user renames it again. */
  | { type: 'renamed'; title: string }
  /** Output or exit of a terminal the client runs for the agent. */
  | {
      type: 'terminal';
      id: string;
      terminalId: string;
      data?: string;
      exit?: { exitCode: number | null; signal: string | null };
    };

/** The actions of a connect's failure (ChatLink.failureAction): its notice is about a failure a new session ends. */
const CONNECT_FAILURE_ACTIONS: ReadonlySet<NoticeAction> = new Set(['install', 'openSettings', 'retry']);

/** `entries` without the errors of connects that failed (the same array when there are none). */
function withoutConnectFailures(entries: readonly Entry[]): readonly Entry[] {
  const failed = (e: Entry) => e.kind === 'notice' && e.action !== undefined && CONNECT_FAILURE_ACTIONS.has(e.action);
  return entries.some(failed) ? entries.filter((e) => !failed(e)) : entries;
}

export function reduceThread(thread: Thread, action: ThreadAction): Thread {
  switch (action.type) {
    case 'sessionStarted':
      return { ...thread, controls: controlsFromSetup(action.setup), entries: withoutConnectFailures(thread.entries) };
    case 'controlsChanged':
      return { ...thread, controls: action.controls };
    case 'prompt':
      // What the agent suggested was for this prompt: once one is sent, they are spent.
      return {
        ...thread,
        turn: 'running',
        plan: [],
        entries: [...thread.entries, userEntry(action)],
        suggestions: undefined,
      };
    case 'steered':
      return append(thread, { ...userEntry(action), steered: true });
    case 'cut':
      return thread.turn === 'running'
        ? thread
        : { ...thread, plan: [], entries: thread.entries.slice(0, action.keep) };
    case 'steerRefused': {
      const refused = (e: Entry) => e.id === action.entryId && e.kind === 'user' && e.steered === true;
      return thread.entries.some(refused) ? { ...thread, entries: thread.entries.filter((e) => !refused(e)) } : thread;
    }
    case 'update':
      return applyUpdate(thread, action.id, action.update);
    case 'stopping':
      return thread.turn === 'running' ? { ...thread, stopping: true } : thread;
    case 'turnEnded':
      return endTurn(thread, action.id, stopReasonNotice(action.stopReason));
    case 'turnFailed':
      return endTurn(thread, action.id, { level: 'error', text: action.message });
    case 'notice':
      return appendToRun(thread, {
        kind: 'notice',
        id: action.id,
        level: action.level,
        text: action.text,
        ...(action.action ? { action: action.action } : {}),
        ...(action.replaced ? { replaced: action.replaced } : {}),
      });
    case 'terminal':
      return terminalEvent(thread, action.terminalId, action.data, action.exit);
    case 'editorCall':
      return editorCalled(thread, action.id, action.call);
    case 'oldTextsRead': {
      const at = findTool(thread, action.toolCallId);
      const tool = thread.entries[at] as ToolEntry | undefined;
      const content = tool && keepOldTexts(tool.content, action.content);
      return tool && content && content.some((c, i) => c !== tool.content[i])
        ? replaceAt(thread, at, { ...tool, content })
        : thread;
    }
    case 'renamed': {
      const title = titleText(action.title);
      return title ? { ...thread, title, titleByUser: true } : thread;
    }
    default:
      return assertNever(action);
  }
}

function applyUpdate(thread: Thread, id: string, update: SessionUpdate): Thread {
  const subagent = applySubagentUpdate(thread, id, update);
  if (subagent) return subagent;
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
      // Some agents echo the user's prompt back while the turn runs; the prompt
      // is already shown. Outside a turn (session/load replay) it is history.
      if (thread.turn === 'running') return thread;
      return update.content.type === 'text'
        ? appendText(thread, 'user', id, update.content.text, agentIdOf(update.messageId))
        : attachToUser(thread, id, replayedAttachment(update.content));
    case 'agent_message_chunk':
      return applyChunk(thread, 'assistant', id, update);
    case 'agent_thought_chunk':
      return applyChunk(thread, 'thought', id, update);
    case 'tool_call':
      return upsertToolCall(thread, id, update);
    case 'tool_call_update':
      return patchToolCall(thread, id, update);
    case 'plan':
      return {
        ...thread,
        plan: boundedSteps(
          update.entries,
          (e) => ({ content: cutText(e.content, MAX_PLAN_ENTRY_CHARS), priority: e.priority, status: e.status }),
          leftOutOf(update._meta, 'entries'),
        ),
      };
    case 'session_info_update': {
      const suggestions = suggestionsOf(update._meta);
      const planned = planOperationOf(update._meta);
      const titled =
        update.title == null || thread.titleByUser ? thread : { ...thread, title: titleText(update.title) };
      const next = planned ? { ...titled, plans: withPlanOperation(titled.plans, planned) } : titled;
      return suggestions ? { ...next, suggestions } : next;
    }
    case 'notice':
      return appendToRun(thread, {
        kind: 'notice',
        id,
        level: noticeLevel(update.severity),
        text: cutText(update.description ? `${update.title}: ${update.description}` : update.title, MAX_NOTICE_CHARS),
      });
    case 'available_commands_update':
    case 'current_mode_update':
    case 'config_option_update':
    case 'usage_update': {
      const controls = applyControlsUpdate(thread.controls, update);
      return controls ? { ...thread, controls } : thread;
    }
    case 'compaction_update':
      return applyCompactionUpdate(thread, id, update);
    case 'compaction_summary_chunk':
      return applyCompactionChunk(thread, id, update);
    default:
      // Every kind of UPDATE_KINDS has its case (a new SDK kind fails to compile here); unknown kinds are taken out before the SDK sees them.
      update satisfies never;
      return thread;
  }
}

/** The longest notice an agent's `notice` update makes. */
const MAX_NOTICE_CHARS = 64 * 1024;

/** The index of the entry of tool call `toolCallId` (the newest, should there be two), else -1. */
export function findTool(thread: Thread, toolCallId: string): number {
  for (let i = thread.entries.length - 1; i >= 0; i--) {
    const entry = thread.entries[i];
    if (entry.kind === 'tool' && entry.toolCallId === toolCallId) return i;
  }
  return -1;
}

function terminalEvent(
  thread: Thread,
  terminalId: string,
  data: string | undefined,
  exit: { exitCode: number | null; signal: string | null } | undefined,
): Thread {
  // Own keys only: an agent's terminal id may be "constructor" or "__proto__".
  const before: TerminalState = (Object.hasOwn(thread.terminals, terminalId)
    ? thread.terminals[terminalId]
    : undefined) ?? { output: '' };
  const state: TerminalState = {
    ...before,
    ...(data ? { output: capOutput(before.output + data) } : {}),
    ...(exit ?? {}),
  };
  const entries = thread.entries.map((e) => (e.kind === 'tool' ? showTerminal(e, terminalId, state) : e));
  return { ...thread, terminals: { ...thread.terminals, [terminalId]: state }, entries };
}

function upsertToolCall(thread: Thread, id: string, call: ToolCall): Thread {
  const index = findTool(thread, call.toolCallId);
  const old = index >= 0 ? (thread.entries[index] as ToolEntry) : undefined;
  const entry = stoppedNotFailed(
    thread,
    fillTerminals(toolEntryFromCall(old?.id ?? id, call, old), thread.terminals),
    old,
  );
  return index >= 0 ? replaceAt(thread, index, entry) : append(thread, entry);
}

function patchToolCall(thread: Thread, id: string, update: ToolCallUpdate): Thread {
  const index = findTool(thread, update.toolCallId);
  // A call first seen in an update (Gemini CLI announces some only in a permission request): a call all the same.
  if (index < 0) {
    return append(thread, stoppedNotFailed(thread, fillTerminals(toolEntryFromUpdate(id, update), thread.terminals)));
  }
  const old = thread.entries[index] as ToolEntry;
  const patched = stoppedNotFailed(thread, fillTerminals(patchToolEntry(old, update), thread.terminals), old);
  // A subagent's call that ended is over, whatever its own calls last said.
  const final = patched.status !== 'pending' && patched.status !== 'in_progress';
  return replaceAt(thread, index, final ? settleChildren(patched) : patched);
}

function endTurn(thread: Thread, id: string, notice: { level: NoticeLevel; text: string } | undefined): Thread {
  let next: Thread = {
    ...thread,
    turn: 'idle',
    plan: [],
    entries: settleOpenEntries(thread.entries),
    stopping: undefined,
    editorCalls: undefined,
  };
  if (thread.plan.length > 0) next = append(next, { kind: 'plan', id: `${id}:plan`, entries: [...thread.plan] });
  if (thread.editorCalls) next = append(next, thread.editorCalls);
  if (notice) next = append(next, { kind: 'notice', id, ...notice });
  const last = next.entries[next.entries.length - 1];
  return last ? { ...next, sealedEntryId: last.id } : next;
}

/**
 * After the user's Stop, a tool call the agent now reports failed was stopped
 * (agents report the command they killed as failed): it is shown cancelled,
 * not as an error. One that had failed before stays failed.
 */
function stoppedNotFailed(thread: Thread, entry: ToolEntry, old?: ToolEntry): ToolEntry {
  return thread.stopping && entry.status === 'failed' && old?.status !== 'failed'
    ? { ...entry, status: 'cancelled' }
    : entry;
}

/**
 * At a turn's end, what the agent left open is over: a tool call still pending or running, and a compaction still
 * in progress (its spinner would turn in an idle chat for as long as the chat is open).
 */
function settleOpenEntries(entries: readonly Entry[]): readonly Entry[] {
  const open = (e: Entry) =>
    (e.kind === 'tool' && (e.status === 'pending' || e.status === 'in_progress')) ||
    (e.kind === 'compaction' && e.status === 'in_progress');
  if (!entries.some(open)) return entries;
  return entries.map((e) => {
    if (!open(e)) return e;
    return e.kind === 'tool' ? settleChildren({ ...e, status: 'cancelled' as const }) : { ...e, status: 'cancelled' };
  });
}

/** What a turn the user stopped ends with. */
export const STOPPED_NOTICE = 'Stopped.';

function stopReasonNotice(reason: StopReason): { level: NoticeLevel; text: string } | undefined {
  switch (reason) {
    case 'end_turn':
      return undefined;
    case 'cancelled':
      return { level: 'info', text: STOPPED_NOTICE };
    case 'max_tokens':
      return { level: 'warning', text: 'The agent stopped: it reached its token limit.' };
    case 'max_turn_requests':
      return { level: 'warning', text: 'The agent stopped: it reached its limit of requests for one turn.' };
    case 'refusal':
      return {
        level: 'warning',
        text: 'The agent refused. This prompt and everything after it will be left out of its next prompt.',
      };
    default:
      return { level: 'warning', text: `The turn ended: ${String(reason)}.` };
  }
}

function noticeLevel(severity: string): NoticeLevel {
  return severity === 'error' || severity === 'warning' ? severity : 'info';
}
