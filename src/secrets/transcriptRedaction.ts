/**
 * Secrets kept out of a chat's transcript, and so out of everything made
 * from it: the view, the saved history and its titles, archived and exported
 * Markdown, notifications.
 *
 * Every string of every action is redacted before the reducer sees it. A
 * streamed message needs more: an agent (a model) sends a secret it echoes
 * in pieces, and no piece holds all of it. So the end of a streamed text
 * that could be the beginning of a secret is held back until the next piece
 * of its stream says whether it is (then it is redacted whole) or not (then
 * it is shown). Other updates may come between the pieces (usage, another
 * terminal's output, commands): held text is let go before one only when
 * that one ends the held text's message (a tool call, a notice, a thought,
 * the turn's end: what makes the next piece start an entry of its own), so
 * that it is shown where it belongs and no later piece can join it.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Thread } from '../shared/thread/thread';
import { reduceThread, type ThreadAction } from '../shared/thread/threadReducer';
import type { Redactor } from './redactor';

/** A piece of streamed text: a message, thought or replayed prompt chunk, or a terminal's output. */
interface Streamed {
  /** Which stream: the update kind, or the terminal. */
  readonly key: string;
  readonly text: string;
  /** The same action with other text. */
  readonly withText: (text: string) => ThreadAction;
  /** A terminal's output (its text is not in the entries). */
  readonly terminalId?: string;
}

export class TranscriptRedaction {
  /** By stream: text held back, the end of what was streamed so far. */
  private readonly held = new Map<string, Streamed>();

  constructor(private readonly redactor: Redactor) {}

  /**
   * What to dispatch in place of `action` on `thread` (the transcript as it is now), in order: text held back that
   * `action` ends, then the action redacted (or nothing, while all of it is held back).
   */
  apply(action: ThreadAction, thread: Thread): ThreadAction[] {
    if (!this.redactor.active) return [...this.release(), action];
    const piece = streamedText(action);
    const out: ThreadAction[] = [];
    for (const held of [...this.held.values()]) {
      const released = held.withText(held.text);
      const continues = piece?.key === held.key && (held.terminalId !== undefined || joins(thread, released, action));
      if (continues || (piece?.key !== held.key && !ends(thread, held, released, action))) continue;
      this.held.delete(held.key);
      out.push(released);
      thread = reduceThread(thread, released);
    }
    if (!piece) return [...out, this.redactor.redactStrings(action)];
    const text = this.redactor.redact((this.held.get(piece.key)?.text ?? '') + piece.text);
    const pending = this.redactor.pendingLength(text);
    if (pending > 0) this.held.set(piece.key, { ...piece, text: text.slice(text.length - pending) });
    else this.held.delete(piece.key);
    const shown = text.slice(0, text.length - pending);
    if (shown !== '') out.push(this.redactor.redactStrings(piece.withText(shown)));
    return out;
  }

  /** All text held back, each as its own action (when the transcript is replaced or cleared: then dropped). */
  release(): ThreadAction[] {
    const held = [...this.held.values()].map((h) => h.withText(h.text));
    this.held.clear();
    return held;
  }
}

/** The last entry of `thread` that text can still join: undefined when there is none or it ended a turn. */
function openEntry(thread: Thread): string | undefined {
  const last = thread.entries[thread.entries.length - 1];
  return last && last.id !== thread.sealedEntryId ? last.id : undefined;
}

/** Whether the next piece of held text's stream (`next`) goes into the same entry as the held text. */
function joins(thread: Thread, released: ThreadAction, next: ThreadAction): boolean {
  const withHeld = reduceThread(thread, released);
  const entry = openEntry(withHeld);
  return entry !== undefined && openEntry(reduceThread(withHeld, next)) === entry;
}

/**
 * Whether `action` ends the message the held text belongs to: after it, that stream's next piece would be shown
 * apart from it. A terminal's output ends with its exit (or any other event of it) and with the turn.
 */
function ends(thread: Thread, held: Streamed, released: ThreadAction, action: ThreadAction): boolean {
  if (action.type === 'turnEnded' || action.type === 'turnFailed') return true;
  if (held.terminalId !== undefined) return action.type === 'terminal' && action.terminalId === held.terminalId;
  return !joins(thread, released, action);
}

const STREAMED_UPDATES = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

function streamedText(action: ThreadAction): Streamed | undefined {
  if (action.type === 'terminal' && action.data && !action.exit) {
    return {
      key: `terminal:${action.terminalId}`,
      text: action.data,
      withText: (data) => ({ ...action, data }),
      terminalId: action.terminalId,
    };
  }
  if (action.type !== 'update' || !STREAMED_UPDATES.has(action.update.sessionUpdate)) return undefined;
  const update = action.update as Extract<SessionUpdate, { sessionUpdate: 'agent_message_chunk' }>;
  if (update.content.type !== 'text') return undefined;
  const content = update.content;
  return {
    key: update.sessionUpdate,
    text: content.text,
    withText: (text) => ({ ...action, update: { ...update, content: { ...content, text } } as SessionUpdate }),
  };
}
