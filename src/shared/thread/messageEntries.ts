/**
 * Message entries (the user's, the agent's, its thoughts) as updates build them: chunks that add to a message,
 * a message sent again whole that replaces it (ACP v2's upserts, see connection/v2/updates.ts), a replayed
 * prompt's attachments, a content block's plain-text stand-in; and the calls the agent made to the editor server.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Entry, Thread } from './thread';
import { recordGrowth } from '../text/textGrowth';
import type { SentAttachment } from '../attachments';
import { withCall, type EditorCall } from '../editorCalls';

/** Characters of one message an entry holds before the message continues in the next (see appendText). */
export const MAX_ENTRY_CHARS = 16 * 1024 * 1024;

export function append(thread: Thread, entry: Entry): Thread {
  return { ...thread, entries: [...thread.entries, entry] };
}

/** The user's prompt (or a message steered into the turn) as sent, with what went with it. */
export function userEntry(sent: {
  id: string;
  text: string;
  attachments?: readonly SentAttachment[];
}): Extract<Entry, { kind: 'user' }> {
  return {
    kind: 'user',
    id: sent.id,
    text: sent.text,
    ...(sent.attachments ? { attachments: [...sent.attachments] } : {}),
  };
}

export function replaceAt(thread: Thread, index: number, entry: Entry): Thread {
  const entries = thread.entries.slice();
  entries[index] = entry;
  return { ...thread, entries };
}

/**
 * Chunks merge into the last entry when it is of the same kind, unless that
 * entry ended a turn (text the agent sends between turns is a message of its
 * own, never the end of the last answer), and up to MAX_ENTRY_CHARS: a
 * message that goes on past it continues in a new entry, so that the
 * transcript's bound (transcriptBound.ts) can move its older part out of
 * memory like any other entry, however long the agent streams.
 */
export function appendText(
  thread: Thread,
  kind: 'user' | 'assistant' | 'thought',
  id: string,
  text: string,
  messageId?: string,
): Thread {
  if (text === '') return thread;
  const lastIndex = thread.entries.length - 1;
  const last = thread.entries[lastIndex];
  const withId = messageId === undefined ? {} : { messageId };
  // A chunk of another message (both ids known, and they differ) starts its own entry (ACP: a new id is a new message).
  const otherMessage =
    messageId !== undefined && last?.kind === kind && last.messageId !== undefined && last.messageId !== messageId;
  if (
    last &&
    last.kind === kind &&
    !otherMessage &&
    last.id !== thread.sealedEntryId &&
    last.text.length < MAX_ENTRY_CHARS
  ) {
    const grown = { ...last, text: last.text + text, ...withId };
    recordGrowth(last, grown, text);
    return replaceAt(thread, lastIndex, grown);
  }
  return append(thread, { kind, id, text, ...withId } as Entry);
}

/** `_meta` key of a message chunk that replaces the whole message of its id instead of adding to it (ACP v2's upsert). */
export const REPLACES_MESSAGE_KEY = 'vscode-acp/replacesMessage';

/**
 * A chunk of a message: added to it (appendText), or, marked as an upsert of a message shown already, its text
 * instead (a message not shown yet is a new one).
 */
export function applyChunk(
  thread: Thread,
  kind: 'user' | 'assistant' | 'thought',
  id: string,
  chunk: { content: ContentBlock; messageId?: string | null; _meta?: Record<string, unknown> | null },
): Thread {
  const text = contentText(chunk.content);
  const messageId = agentIdOf(chunk.messageId);
  if (!chunk._meta?.[REPLACES_MESSAGE_KEY] || messageId === undefined) {
    return appendText(thread, kind, id, text, messageId);
  }
  for (let i = thread.entries.length - 1; i >= 0; i--) {
    const entry = thread.entries[i];
    if (entry.kind === kind && entry.messageId === messageId) {
      return replaceAt(thread, i, { ...entry, text: text.slice(0, MAX_ENTRY_CHARS) });
    }
  }
  return appendText(thread, kind, id, text, messageId);
}

/** The longest id an agent gives that is kept (message, compaction, parent tool call ids are short; a longer one is not). */
export const MAX_MESSAGE_ID_CHARS = 200;

/** An id the agent gave (a chunk's `messageId`, a compaction's, a subagent's parent), as kept: a non-empty string, at most MAX_MESSAGE_ID_CHARS. */
export function agentIdOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_MESSAGE_ID_CHARS ? value : undefined;
}

/** An attachment of a replayed prompt: a chip on the user's message (it is not dumped into its text). */
export function attachToUser(thread: Thread, id: string, attachment: SentAttachment | undefined): Thread {
  if (!attachment) return thread;
  const lastIndex = thread.entries.length - 1;
  const last = thread.entries[lastIndex];
  if (
    last &&
    last.kind === 'user' &&
    last.id !== thread.sealedEntryId &&
    (last.attachments?.length ?? 0) < MAX_REPLAYED_ATTACHMENTS
  ) {
    return replaceAt(thread, lastIndex, { ...last, attachments: [...(last.attachments ?? []), attachment] });
  }
  return append(thread, { kind: 'user', id, text: '', attachments: [attachment] });
}

const MAX_REPLAYED_ATTACHMENTS = 100;

export function replayedAttachment(block: ContentBlock): SentAttachment | undefined {
  const label = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 200) || 'attachment';
  switch (block.type) {
    case 'image':
      return { label: `Image (${mediaType(block.mimeType)})`, icon: 'image' };
    case 'audio':
      return { label: `Audio (${mediaType(block.mimeType)})`, icon: 'file' };
    case 'resource_link':
      return { label: label(block.title ?? block.name), icon: 'file' };
    case 'resource': {
      const { uri } = block.resource;
      const lines = /#L(\d+)-L(\d+)$/.exec(uri);
      const hash = fragmentStart(uri);
      const name = (hash < 0 ? uri : uri.slice(0, hash)).split('/').filter(Boolean).pop() ?? uri;
      return lines
        ? { label: label(`${decodeName(name)}:L${lines[1]}-L${lines[2]}`), icon: 'selection' }
        : { label: label(decodeName(name)), icon: 'file' };
    }
    default:
      return undefined;
  }
}

/**
 * Where /#.*$/ would match: the first '#' after the last line end (`.` stops at one). Found by search: the pattern
 * tried each '#' up to the next line end, quadratic on '#' * 100,000 and a newline.
 */
function fragmentStart(uri: string): number {
  const lineEnd = Math.max(...['\n', '\r', '\u2028', '\u2029'].map((end) => uri.lastIndexOf(end)));
  return uri.indexOf('#', lineEnd + 1);
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** A plain-text stand-in for a content block in a message; Markdown rendering happens in the view. */
export function contentText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    // A paragraph of its own, so that it never runs into the text or link next to it.
    case 'image':
      return `\n\n_Image (${mediaType(block.mimeType)}), not shown_\n\n`;
    case 'audio':
      return `\n\n_Audio (${mediaType(block.mimeType)}), not played_\n\n`;
    case 'resource_link':
      return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    default:
      return '';
  }
}

/** A media type as the agent named it, when it looks like one (it is shown inside Markdown). */
function mediaType(mimeType: string): string {
  return /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(mimeType) ? mimeType : 'unknown type';
}

/**
 * The thread after the agent's call `call` to the editor server (the action's `id` names an entry it starts): in a
 * turn, gathered until it ends (then one entry after the answer); outside one, added to the entry at the end, or one.
 */
export function editorCalled(thread: Thread, id: string, call: EditorCall): Thread {
  if (thread.turn === 'running') return { ...thread, editorCalls: withCall(thread.editorCalls, id, call) };
  const last: Entry | undefined = thread.entries[thread.entries.length - 1];
  return last?.kind === 'editorCalls'
    ? replaceAt(thread, thread.entries.length - 1, withCall(last, id, call))
    : append(thread, withCall(undefined, id, call));
}
