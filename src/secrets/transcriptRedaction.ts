/**
 * Secrets kept out of a chat's transcript, and so out of everything made
 * from it: the view, the saved history and its titles, archived and exported
 * Markdown, notifications.
 *
 * Every string of every action is redacted before the reducer sees it. A
 * streamed message needs more: an agent (a model) sends a secret it echoes
 * in pieces, and no piece holds all of it. So the end of a streamed text
 * that could be the beginning of a secret is held back until the next piece
 * says whether it is (then it is redacted whole) or not (then it is shown);
 * any other action first lets it go, so nothing is held for long or shown
 * out of order.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ThreadAction } from '../shared/threadReducer';
import type { Redactor } from './redactor';

/** A piece of streamed text: a message, thought or replayed prompt chunk, or a terminal's output. */
interface Streamed {
  /** Which stream: the update kind, or the terminal. */
  readonly key: string;
  readonly text: string;
  /** The same action with other text. */
  readonly withText: (text: string) => ThreadAction;
}

export class TranscriptRedaction {
  private held: Streamed | undefined;

  constructor(private readonly redactor: Redactor) {}

  /** What to dispatch in place of `action`, in order: text held back before, then the action redacted (or nothing, while all of it is held back). */
  apply(action: ThreadAction): ThreadAction[] {
    if (!this.redactor.active) return [...this.release(), action];
    const piece = streamedText(action);
    if (!piece) return [...this.release(), this.redactor.redactStrings(action)];
    const out = this.held && this.held.key !== piece.key ? this.release() : [];
    const text = this.redactor.redact((this.held?.text ?? '') + piece.text);
    const pending = this.redactor.pendingLength(text);
    this.held = pending > 0 ? { ...piece, text: text.slice(text.length - pending) } : undefined;
    const shown = text.slice(0, text.length - pending);
    if (shown !== '') out.push(this.redactor.redactStrings(piece.withText(shown)));
    return out;
  }

  /** The text held back, as its own action (when a turn ends, or another action comes). */
  release(): ThreadAction[] {
    const held = this.held;
    this.held = undefined;
    return held ? [held.withText(held.text)] : [];
  }
}

const STREAMED_UPDATES = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

function streamedText(action: ThreadAction): Streamed | undefined {
  if (action.type === 'terminal' && action.data && !action.exit) {
    return { key: `terminal:${action.terminalId}`, text: action.data, withText: (data) => ({ ...action, data }) };
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
