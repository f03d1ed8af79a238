/**
 * Context compaction in the thread (ACP `compaction_update` and
 * `compaction_summary_chunk`, advertised with `session.compaction`): one entry
 * per compaction id, placed where its first update came; later updates patch
 * it (`summary`, `error`: omitted leaves, null clears, a value replaces) and
 * summary chunks append. What the agent sends is bounded here, and a run of boundaries too (entryRuns.ts).
 */
import type { CompactionSummaryChunk, CompactionUpdate } from '@agentclientprotocol/sdk';
import type { CompactionEntry, Thread } from './thread';
import { agentIdOf, contentText, replaceAt } from './messageEntries';
import { appendToRun } from './entryRuns';
import { cutText, titleText } from '../text/titleText';

/** The longest summary kept (a summary is a few pages; past this it is cut, and says so). */
export const MAX_SUMMARY_CHARS = 256 * 1024;
const MAX_STATUS_CHARS = 40;
const MAX_ERROR_CHARS = 4 * 1024;

export function applyCompactionUpdate(thread: Thread, id: string, update: CompactionUpdate): Thread {
  const compactionId = agentIdOf(update.compactionId);
  if (compactionId === undefined) return thread;
  const status = titleText(typeof update.status === 'string' ? update.status : '', MAX_STATUS_CHARS) || 'in_progress';
  return upsert(thread, id, compactionId, (old) => {
    const summary =
      update.summary === undefined
        ? old.summary
        : Array.isArray(update.summary)
          ? bounded(update.summary.map(contentText).join(''))
          : '';
    const error =
      update.error === undefined
        ? old.error
        : typeof update.error === 'string'
          ? cutText(update.error, MAX_ERROR_CHARS)
          : undefined;
    const { error: _before, ...rest } = old;
    return { ...rest, status, summary, ...(error ? { error } : {}) };
  });
}

export function applyCompactionChunk(thread: Thread, id: string, chunk: CompactionSummaryChunk): Thread {
  const compactionId = agentIdOf(chunk.compactionId);
  if (compactionId === undefined || !chunk.content) return thread;
  return upsert(thread, id, compactionId, (old) =>
    old.summary.length >= MAX_SUMMARY_CHARS
      ? old
      : { ...old, summary: bounded(old.summary + contentText(chunk.content)) },
  );
}

function upsert(
  thread: Thread,
  id: string,
  compactionId: string,
  patch: (old: CompactionEntry) => CompactionEntry,
): Thread {
  const at = thread.entries.findIndex((e) => e.kind === 'compaction' && e.compactionId === compactionId);
  const old: CompactionEntry =
    at >= 0
      ? (thread.entries[at] as CompactionEntry)
      : { kind: 'compaction', id, compactionId, status: 'in_progress', summary: '' };
  const next = patch(old);
  return at >= 0 ? replaceAt(thread, at, next) : appendToRun(thread, next);
}

function bounded(text: string): string {
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS)}\n\n_(cut short)_` : text;
}
