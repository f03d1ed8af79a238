/**
 * Edit, Retry and Branch of a chat: the conversation cut at a prompt
 * (rewindCut.ts says where) goes on from there, and the agent's session follows:
 * a fork at that point where the agent can (sessionOpen.ts), else a new
 * session given the earlier turns with the next prompt; the chat says which.
 * Edit first puts back the files the agent changed from that prompt on (the
 * preview of Restore files to here; said no to, nothing changes); the
 * session as it was stays in the history.
 */
import type { ChatChanges } from '../changes/chatChanges';
import { savedEntryId } from '../shared/saved/savedSessions';
import type { Thread } from '../shared/thread/thread';
import type { ChatLink } from '../session/chatLink';
import type { SessionRef } from '../session/sessionOpen';
import type { ChatSession } from '../session/chatSession';
import type { ChatComposer } from './composer/chatComposer';
import type { ChatTranscript } from './chatTranscript';
import { cutBefore, type Cut } from './rewindCut';

/** What rewinding needs of its chat. */
export interface RewindChat {
  /** The chat's id: the prefix of its entry ids. */
  readonly id: string;
  readonly link: ChatLink;
  readonly transcript: ChatTranscript;
  readonly composer: ChatComposer;
  readonly changes: ChatChanges | undefined;
  agentId(): string | undefined;
  turnRunning(): boolean;
}

export class ChatRewind {
  /** The earlier turns of a cut whose session is not open yet: for a new session that is no fork. */
  private pendingContext: string | undefined;

  constructor(private readonly chat: RewindChat) {}

  /**
   * Edit (and Retry: the same text) of prompt `entryId`: the conversation goes on from before it with `text`. Where it
   * does not (the user said no to putting the files back, a turn started meanwhile), an edited text goes back to the
   * composer, not lost.
   */
  async resend(entryId: string, text: string): Promise<void> {
    const { link, transcript, changes } = this.chat;
    const agentId = this.chat.agentId();
    if (link.closed || text.trim() === '' || !agentId) return;
    const original = transcript.value.entries.find((e) => e.id === entryId);
    const edited = original?.kind === 'user' && original.text !== text;
    const keepText = () => (edited ? this.chat.composer.handBack(text) : undefined);
    if (this.chat.turnRunning()) return keepText();
    const cut = cutBefore(transcript.value.entries, entryId);
    // The turn before has ended, but its changes may still be being recorded (a pass over the folders).
    await changes?.settled;
    if (!cut || (changes && !(await changes.restoreTo(entryId))) || this.chat.turnRunning()) return keepText();
    const before = link.sessionRef;
    const next = this.start(cut, before);
    // An Edit or Retry right after another: the notices of that one go (the version before it is reached from the
    // one opened), and one says both.
    let noticesFrom = cut.kept.length;
    while (noticesFrom > 0 && cut.kept[noticesFrom - 1]!.kind === 'notice') noticesFrom--;
    const at = cut.kept.slice(noticesFrom).findIndex((e) => e.kind === 'notice' && e.action === 'openReplaced');
    const again = at >= 0;
    const replacedAt = noticesFrom + at;
    transcript.dispatch({ type: 'cut', keep: again ? replacedAt : cut.kept.length });
    if (before) {
      this.sayReplaced(edited ? 'Edited' : 'Sent again', again, {
        agentId: before.agentId,
        sessionId: before.sessionId,
      });
    }
    if (!(await link.moveTo(agentId, next))) return this.chat.composer.handBack(text);
    await this.chat.composer.sendText(text);
  }

  /** The conversation goes on from here; the one it replaced is in the history, a click away. */
  private sayReplaced(how: string, again: boolean, replaced: { agentId: string; sessionId: string }): void {
    const { transcript } = this.chat;
    const kept = again
      ? "The earlier versions are kept in this workspace's history."
      : "As it was before, it is kept in this workspace's history.";
    transcript.dispatch({
      type: 'notice',
      id: transcript.newId(),
      level: 'info',
      text: `${how}: the conversation goes on from here. ${kept}`,
      action: 'openReplaced',
      replaced,
    });
  }

  /** Retry: the last prompt sent again (see resend). */
  retry(): Promise<void> {
    const last = [...this.chat.transcript.value.entries].reverse().find((e) => e.kind === 'user' && e.steered !== true);
    return last?.kind === 'user' ? this.resend(last.id, last.text) : Promise.resolve();
  }

  /**
   * The chat (new, empty) as a branch of another's conversation: its entries up to the cut, and the agent's session
   * forked there at the first Connect where the agent can (else a new one given the earlier turns).
   */
  startBranch(cut: Cut, terminals: Thread['terminals'], from: SessionRef | undefined, title: string | undefined): void {
    const { transcript, link } = this.chat;
    transcript.seed(
      cut.kept.map((e, i) => ({ ...e, id: savedEntryId(this.chat.id, i) })),
      terminals,
      { text: title },
    );
    link.continueLater(this.start(cut, from));
    transcript.notice(
      'info',
      'A branch: this chat goes on from the turn above; the chat it came from is unchanged. The agent follows from there once you send a prompt.',
    );
  }

  /** The session after a cut is open: whether the agent forked its session, or this new one is told the earlier turns. */
  landed(session: ChatSession): void {
    const context = this.pendingContext;
    this.pendingContext = undefined;
    if (!context) return;
    const { transcript } = this.chat;
    if (session.continuation?.how === 'forked') {
      transcript.notice(
        'info',
        'The agent forked its session at that point: it remembers the turns above, not what followed.',
      );
      return;
    }
    this.chat.composer.giveContext(context);
    transcript.notice(
      'info',
      'This agent cannot fork its session at that point: a new session begins, and the turns above go to it as context with the next prompt.',
    );
  }

  /** The session to go on with after a cut (see sessionOpen.ts): a fork of `from`, or none (a new one). */
  private start(cut: Cut, from: SessionRef | undefined): SessionRef | undefined {
    this.pendingContext = cut.context;
    // Not `how` (the way the user chose to continue that session): a fork is no continuation.
    return from && cut.fork
      ? { agentId: from.agentId, sessionId: from.sessionId, cwd: from.cwd, fork: cut.fork }
      : undefined;
  }
}
