/**
 * Where Edit (and Retry, the last prompt sent again) and Branch cut a
 * conversation: what of the transcript is kept, where the agent's session
 * forks (after its last message that is kept, where the agent forks at a
 * message; whole, when nothing after the cut would be in it), and what a new
 * session is told of the earlier turns when the agent cannot fork.
 */
import type { Entry } from '../shared/thread/thread';

/** The most of the earlier turns a new session is given as context: the newest part. */
export const MAX_CONTEXT_CHARS = 100_000;

export interface Cut {
  /** The entries the conversation keeps. */
  readonly kept: readonly Entry[];
  /**
   * How the agent's session follows: a fork after its message `messageId` (the newest kept answer's), or `whole` (the
   * cut is at the end); undefined: nothing of the agent's is kept, a new session starts as it would.
   */
  readonly fork: { readonly messageId?: string; readonly whole: boolean } | undefined;
  /** The kept turns as text, for a new session when the agent cannot fork ('' when nothing is kept). */
  readonly context: string;
}

/** Edit and Retry: everything before prompt `promptId`. Undefined when that is not a prompt of `entries`. */
export function cutBefore(entries: readonly Entry[], promptId: string): Cut | undefined {
  const at = promptIndex(entries, promptId);
  return at === undefined ? undefined : cut(entries.slice(0, at), false);
}

/** Branch: prompt `promptId` and its whole turn (to the next prompt). */
export function cutAfterTurn(entries: readonly Entry[], promptId: string): Cut | undefined {
  const at = promptIndex(entries, promptId);
  if (at === undefined) return undefined;
  const next = entries.findIndex((e, i) => i > at && isPrompt(e));
  const end = next < 0 ? entries.length : next;
  return cut(entries.slice(0, end), end === entries.length);
}

function cut(kept: readonly Entry[], whole: boolean): Cut {
  if (!kept.some((e) => e.kind === 'assistant' || e.kind === 'tool')) return { kept, fork: undefined, context: '' };
  const lastAnswer = [...kept].reverse().find((e) => e.kind === 'assistant');
  const messageId = lastAnswer?.kind === 'assistant' ? lastAnswer.messageId : undefined;
  return { kept, fork: { ...(messageId !== undefined ? { messageId } : {}), whole }, context: earlierTurnsText(kept) };
}

/** A prompt the user sent as a turn of its own (not one steered into a turn). */
function isPrompt(entry: Entry): boolean {
  return entry.kind === 'user' && entry.steered !== true;
}

function promptIndex(entries: readonly Entry[], promptId: string): number | undefined {
  const at = entries.findIndex((e) => e.id === promptId);
  return at >= 0 && isPrompt(entries[at]!) ? at : undefined;
}

/** The turns of `entries` as a new session is told them: prompts and answers in order, tool calls by title. */
export function earlierTurnsText(entries: readonly Entry[]): string {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.kind === 'user') lines.push(`User: ${e.text}`);
    else if (e.kind === 'assistant') lines.push(`Assistant: ${e.text}`);
    else if (e.kind === 'tool') lines.push(`Tool call: ${e.title}`);
  }
  // The newest part, whole lines while they fit.
  let size = 0;
  let from = lines.length;
  while (from > 0 && size + lines[from - 1]!.length + 2 <= MAX_CONTEXT_CHARS) size += lines[--from]!.length + 2;
  const head = 'The conversation so far (a new session continues it):';
  if (from === 0) return [head, '', ...lines].join('\n');
  const kept = from === lines.length ? [lines.at(-1)!.slice(-MAX_CONTEXT_CHARS)] : lines.slice(from);
  return [head, '(… earlier part left out)', '', ...kept].join('\n');
}
