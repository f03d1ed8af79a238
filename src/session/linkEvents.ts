/** What a chat's link (chatLink.ts) tells the chat happened to its session, as events. */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { type Disposable, Emitter } from '../shared/events';
import type { ChatSession } from './chatSession';
import type { SessionRef } from './sessionOpen';

export abstract class LinkEvents {
  private readonly emitters: Disposable[] = [];
  protected readonly _onDidReplaceSession = this.emitter<{ before: SessionRef; after: SessionRef }>();
  /** The agent could not continue the chat's session and started a new one in its place (the history's entry follows). */
  readonly onDidReplaceSession = this._onDidReplaceSession.event;
  protected readonly _onDidAttach = this.emitter<{ session: ChatSession; agentId: string }>();
  /** The link is up on a session (new, continued, or again after a dropped connection); its updates follow. */
  readonly onDidAttach = this._onDidAttach.event;
  protected readonly _onDidUpdate = this.emitter<SessionUpdate>();
  /** An update of the live session, after the transcript took it. */
  readonly onDidUpdate = this._onDidUpdate.event;
  protected readonly _onDidReconnect = this.emitter<void>();
  /** Connected again after a dropped connection (after onDidAttach): what waited can be sent. */
  readonly onDidReconnect = this._onDidReconnect.event;
  protected readonly _onDidEnd = this.emitter<void>();
  /** Disconnected or failed: no connection is coming, so what waited for one goes back to the user. */
  readonly onDidEnd = this._onDidEnd.event;
  protected readonly _onDidChange = this.emitter<void>();
  /** Fires after every change of the link (after onDidEnd). */
  readonly onDidChange = this._onDidChange.event;

  protected disposeEvents(): void {
    for (const emitter of this.emitters) emitter.dispose();
  }

  private emitter<T>(): Emitter<T> {
    const emitter = new Emitter<T>();
    this.emitters.push(emitter);
    return emitter;
  }
}
