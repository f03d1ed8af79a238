/**
 * One agent's sessions as the Sessions tree shows them: the agent's own
 * listing (`session/list`, page by page) where it offers one, this
 * workspace's history where it cannot list but can load or resume, and the
 * state the listing is in. A listing is hostile until checked: titles are
 * cleaned, ids deduplicated, the total bounded, a cursor loop stopped, a page
 * that never comes timed out.
 */
import * as acp from '@agentclientprotocol/sdk';
import { AUTH_REQUIRED } from '../connection/agentClient';
import { deadline } from '../connection/abandon';
import type { AgentConnection } from '../connection/agentConnection';
import { errorMessage } from '../errorText';
import { once, ReconnectAfterSignIn, withSignIn } from '../connection/signIn/signIn';
import type { HistoryEntry } from '../shared/saved/savedSessions';
import { titleText } from '../shared/text/titleText';
import { redactor } from '../secrets/redactor';

/** At most this many of an agent's sessions are listed (a listing of millions is not a list). */
export const MAX_LISTED = 1_000;
/** A page not answered in this time is an error (Retry). */
export const LIST_TIMEOUT_MS = 15_000;

export interface ListedSession {
  readonly sessionId: string;
  readonly cwd: string;
  readonly title: string;
  readonly updatedAt?: string;
}

export type ListingState =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'signIn' }
  | { readonly kind: 'error'; readonly message: string }
  /** The agent cannot list: the tree shows this workspace's history (if it can load or resume at all). */
  | { readonly kind: 'cannotList'; readonly canContinue: boolean }
  | { readonly kind: 'listed'; readonly complete: boolean; readonly cursor?: string; readonly note?: string };

/** What the agent can do with an earlier session, as it said at `initialize`. */
export interface Continuable {
  readonly canLoad: boolean;
  readonly canResume: boolean;
}

export class AgentListing {
  state: ListingState = { kind: 'unknown' };
  sessions: ListedSession[] = [];
  abilities: Continuable = { canLoad: false, canResume: false };
  private readonly seenCursors = new Set<string>();
  /** Aborted when the listing is given up (Refresh, the view closed): the agent is told of a request still open. */
  private readonly given = new AbortController();

  /** Gives up a listing still under way (the agent gets `$/cancel_request`); this listing is not used again. */
  abandon(): void {
    this.given.abort(new Error('the listing was given up'));
  }

  /**
   * Lists the first page (`more`: the next one). `signIn`: the user asked to
   * sign in, so an "authentication required" answer asks for a method.
   */
  async list(connection: AgentConnection, more: boolean, signIn: boolean): Promise<void> {
    const { opens, listSessions } = connection.client;
    this.abilities = { canLoad: opens.has('load'), canResume: opens.has('resume') };
    if (!listSessions) {
      this.state = { kind: 'cannotList', canContinue: this.abilities.canLoad || this.abilities.canResume };
      return;
    }
    const cursor = more && this.state.kind === 'listed' ? this.state.cursor : undefined;
    if (!more) {
      this.sessions = [];
      this.seenCursors.clear();
    }
    try {
      const request = async () => {
        const wait = deadline(
          LIST_TIMEOUT_MS,
          `the agent did not answer session/list within ${LIST_TIMEOUT_MS / 1000} s`,
          this.given.signal,
        );
        try {
          return await listSessions(connection.cwd, cursor, wait.signal);
        } finally {
          wait.clear();
        }
      };
      const page = await withSignIn(
        request,
        signIn ? once(() => connection.signIn(), connection.agentLabel || connection.agentId) : undefined,
      );
      this.add(page.sessions ?? [], connection.cwd);
      this.state = this.nextState(page.nextCursor ?? undefined);
    } catch (error) {
      if (error instanceof ReconnectAfterSignIn) throw error;
      if (error instanceof acp.RequestError && error.code === AUTH_REQUIRED) this.state = { kind: 'signIn' };
      else this.state = { kind: 'error', message: errorMessage(error) };
    }
  }

  /** The saved sessions of this agent a complete listing no longer has: the agent forgot them. */
  stale(saved: readonly HistoryEntry[]): HistoryEntry[] {
    if (this.state.kind !== 'listed' || !this.state.complete) return [];
    const listed = new Set(this.sessions.map((s) => s.sessionId));
    return saved.filter((s) => !listed.has(s.sessionId));
  }

  private add(page: readonly acp.SessionInfo[], cwd: string): void {
    const known = new Set(this.sessions.map((s) => s.sessionId));
    for (const info of page) {
      if (this.sessions.length >= MAX_LISTED) break;
      const sessionId = typeof info?.sessionId === 'string' ? info.sessionId : undefined;
      if (!sessionId || sessionId.length > 1024 || known.has(sessionId)) continue;
      known.add(sessionId);
      const title = titleText(typeof info.title === 'string' ? redactor.redact(info.title) : '') || 'Untitled session';
      this.sessions.push({
        sessionId,
        cwd: typeof info.cwd === 'string' ? info.cwd : cwd,
        title,
        ...(typeof info.updatedAt === 'string' ? { updatedAt: info.updatedAt.slice(0, 64) } : {}),
      });
    }
  }

  private nextState(next: string | undefined): ListingState {
    if (this.sessions.length >= MAX_LISTED) {
      return {
        kind: 'listed',
        complete: false,
        note: `Only the first ${MAX_LISTED.toLocaleString('en-US')} are listed.`,
      };
    }
    if (next === undefined) return { kind: 'listed', complete: true };
    if (this.seenCursors.has(next)) {
      return { kind: 'listed', complete: false, note: "The agent's listing repeats itself: stopped here." };
    }
    this.seenCursors.add(next);
    return { kind: 'listed', complete: false, cursor: next };
  }
}
