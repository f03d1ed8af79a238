/**
 * A chat's session controls (config options, modes, models): a choice made
 * in the view is sent to the agent, then remembered for that agent; a new
 * session gets the agent's remembered choices.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../errorText';
import type { ChatLink } from '../session/chatLink';
import type { ChatSession } from '../session/chatSession';
import type { ChatTranscript } from './chatTranscript';
import { sameControl } from './modelChoices';
import type { ControlChange, RememberedControls } from './rememberedControls';

export class ChatControls {
  private restoring: Promise<void> = Promise.resolve();
  /** Choices for this chat only (Ask Several Agents' model of one agent), over the agent's remembered ones. */
  private pinned: ControlChange[] = [];

  constructor(
    private readonly choices: RememberedControls,
    private readonly link: ChatLink,
    private readonly transcript: ChatTranscript,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Settled once the remembered choices are applied to the current session (a prompt that waited waits for it). */
  get ready(): Promise<void> {
    return this.restoring;
  }

  /** A choice for this chat's sessions, not remembered for the agent; the user's own change in the view ends it. */
  pin(change: ControlChange): void {
    this.pinned = [...this.pinned.filter((p) => !sameControl(p, change)), change];
  }

  /** A config option, mode or model picked in the view: sent to the agent, then remembered for this agent. */
  async change(change: ControlChange): Promise<void> {
    this.pinned = this.pinned.filter((p) => !sameControl(p, change));
    const c = this.link.current;
    if (c.state !== 'connected') return;
    try {
      const update = await this.choices.apply(c.session.lease.connection.client, c.session.sessionId, change);
      if (this.link.current !== c) return;
      this.set(update(this.transcript.value.controls));
      this.choices.remember(c.session.lease.connection.agentId, change);
    } catch (error) {
      this.transcript.notice('error', `The agent refused the change: ${errorMessage(error)}`);
    }
  }

  /** A new session on `agentId`: its remembered choices are applied, quietly skipping what the agent refuses. */
  restore(session: ChatSession, agentId: string): void {
    this.restoring = this.apply(session, agentId);
  }

  private async apply(session: ChatSession, agentId: string): Promise<void> {
    const pinned = this.pinned;
    const remembered = this.choices
      .pending(agentId, this.transcript.value.controls)
      .filter((change) => !pinned.some((p) => sameControl(p, change)));
    for (const change of [...remembered, ...pinned]) {
      const c = this.link.current;
      if (c.state !== 'connected' || c.session !== session) return;
      try {
        const update = await this.choices.apply(session.lease.connection.client, session.sessionId, change);
        if (this.link.current === c) this.set(update(this.transcript.value.controls));
      } catch (error) {
        const why = `${change.kind} ${change.kind === 'config' ? `${change.id} ${String(change.value)}` : change.id}`;
        // A choice made for this chat is said in it; a remembered one the agent no longer takes only logged.
        if (pinned.includes(change)) {
          this.transcript.notice('warning', `The agent refused ${why}: ${errorMessage(error)}`);
        } else this.log.warn(`Could not restore ${why}: ${errorMessage(error)}`);
      }
    }
  }

  private set(controls: ChatTranscript['value']['controls']): void {
    this.transcript.dispatch({ type: 'controlsChanged', id: this.transcript.newId(), controls });
  }
}
