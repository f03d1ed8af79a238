/**
 * A chat's turns: a prompt and its answer, Stop (`session/cancel`, and the
 * chat's own end of a turn the agent does not end), and which answer belongs
 * to which turn (a late answer ends only its own).
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../connection/agentClient';
import type { SentAttachment } from '../shared/attachments';
import { errorMessage } from '../errorText';
import { isAuthRequired } from '../connection/signIn/signIn';
import { STOPPED_NOTICE, type ThreadAction } from '../shared/thread/threadReducer';
import type { ChatTranscript } from './chatTranscript';

export type TurnEnd = 'finished' | 'stopped' | 'failed';

/**
 * How long Stop waits for the agent to end the turn before the chat ends it
 * itself. A user gets Send back within 2 s of clicking Stop: this, plus the
 * view's way to the host and back (2,000 ms here made it 2.1 s).
 */
export const STOP_GRACE_MS = 1_500;

/** Where a turn runs. */
export interface TurnTarget {
  readonly client: AgentClient;
  readonly sessionId: string;
}

export class ChatTurns {
  /** Counts prompts, so that a late answer ends only its own turn. */
  private seq = 0;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  /** Settles the running turn's wait for the agent's answer, when the chat ends the turn itself. */
  private endedHere: (() => void) | undefined;
  private ended: TurnEnd | undefined;

  constructor(private readonly transcript: ChatTranscript) {}

  /**
   * How the last turn ended: `finished` by the agent (not stopped), `stopped`, or `failed`. For a chat reopened from
   * the history, as its transcript's end says (a failed turn ends with an error, a stopped one with "Stopped.").
   */
  get lastEnd(): TurnEnd | undefined {
    if (this.ended) return this.ended;
    const { entries } = this.transcript.value;
    if (this.transcript.running || !entries.some((e) => e.kind === 'user')) return undefined;
    const last = entries.at(-1);
    if (last?.kind === 'notice' && last.level === 'error') return 'failed';
    return last?.kind === 'notice' && last.text === STOPPED_NOTICE ? 'stopped' : 'finished';
  }

  /**
   * Runs one turn (`text` and `attachments` as shown, `blocks` as sent);
   * `current` says whether the chat is still on that session. The prompt is
   * shown at once and sent once `ready` (a checkpoint being taken) settles.
   * Resolves with the prompt entry's id once the turn is over: when the agent
   * answers, or when the chat ended the turn itself (a Stop the agent did not
   * confirm, Disconnect), whichever comes first: an agent that never answers
   * does not hold up what comes next (a queued prompt).
   */
  async prompt(
    target: TurnTarget,
    text: string,
    blocks: ContentBlock[],
    attachments: readonly SentAttachment[],
    current: () => boolean,
    ready?: Promise<unknown>,
  ): Promise<string> {
    const turn = ++this.seq;
    const id = this.transcript.newId();
    this.transcript.dispatch({ type: 'prompt', id, text, ...(attachments.length > 0 ? { attachments } : {}) });
    const ours = () => current() && this.seq === turn && this.transcript.running;
    await ready;
    // Stopped (or the chat moved on) while the checkpoint was taken: nothing was sent, nothing more to do.
    if (!ours()) return id;
    try {
      const endedHere = new Promise<undefined>((resolve) => (this.endedHere = () => resolve(undefined)));
      const stopReason = await Promise.race([target.client.prompt(target.sessionId, blocks), endedHere]);
      if (stopReason !== undefined && ours()) this.end({ type: 'turnEnded', id: this.transcript.newId(), stopReason });
    } catch (error) {
      // A connection that died is reported once, by its close handler.
      if (ours() && !target.client.isClosed) {
        // Some agents (Claude Code) open sessions signed out and refuse the first prompt.
        const signIn = isAuthRequired(error);
        this.end({
          type: 'turnFailed',
          id: this.transcript.newId(),
          message: signIn
            ? 'The agent needs you to sign in before it answers.'
            : `The agent failed: ${errorMessage(error)}`,
        });
        if (signIn) {
          this.transcript.dispatch({
            type: 'notice',
            id: this.transcript.newId(),
            level: 'warning',
            action: 'signIn',
            text: 'Sign in, then send the prompt again.',
          });
        }
      }
    }
    return id;
  }

  /**
   * Stop: `session/cancel`; the agent ends the turn with `cancelled`. One
   * that has not within STOP_GRACE_MS (or at a second Stop) has its turn
   * ended here, and the chat offers Restart.
   */
  stop(target: TurnTarget): void {
    if (!this.transcript.running) return;
    if (this.stopTimer !== undefined) return this.abandon();
    this.transcript.dispatch({ type: 'stopping' });
    target.client.cancel(target.sessionId);
    this.stopTimer = setTimeout(() => this.abandon(), STOP_GRACE_MS);
  }

  /** Ends the running turn with `action` (none: only forgets a Stop in progress). */
  end(action?: Extract<ThreadAction, { type: 'turnEnded' | 'turnFailed' }>): void {
    clearTimeout(this.stopTimer);
    this.stopTimer = undefined;
    if (!action || !this.transcript.running) return;
    this.endedHere?.();
    this.endedHere = undefined;
    this.ended = action.type === 'turnFailed' ? 'failed' : action.stopReason === 'cancelled' ? 'stopped' : 'finished';
    this.transcript.dispatch(action);
  }

  /** Ends the running turn as cancelled (Disconnect, closing). */
  cancel(): void {
    this.end({ type: 'turnEnded', id: this.transcript.newId(), stopReason: 'cancelled' });
  }

  /** Ends the running turn as failed, saying why. */
  fail(message: string): void {
    this.end({ type: 'turnFailed', id: this.transcript.newId(), message });
  }

  private abandon(): void {
    if (!this.transcript.running) return this.end();
    this.cancel();
    this.transcript.dispatch({
      type: 'notice',
      id: this.transcript.newId(),
      level: 'warning',
      action: 'restart',
      text: 'The agent did not confirm the stop and may still be working. Restart it to be sure it stopped (the session continues where the agent can).',
    });
  }
}
