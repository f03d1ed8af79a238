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
import type { ControlChange, RememberedControls } from './rememberedControls';

export class ChatControls {
  private restoring: Promise<void> = Promise.resolve();

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

  /** A config option, mode or model picked in the view: sent to the agent, then remembered for this agent. */
  async change(change: ControlChange): Promise<void> {
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
    for (const change of this.choices.pending(agentId, this.transcript.value.controls)) {
      const c = this.link.current;
      if (c.state !== 'connected' || c.session !== session) return;
      try {
        const update = await this.choices.apply(session.lease.connection.client, session.sessionId, change);
        if (this.link.current === c) this.set(update(this.transcript.value.controls));
      } catch (error) {
        this.log.warn(`Could not restore ${change.kind} ${change.id}: ${errorMessage(error)}`);
      }
    }
  }

  private set(controls: ChatTranscript['value']['controls']): void {
    this.transcript.dispatch({ type: 'controlsChanged', id: this.transcript.newId(), controls });
  }
}
