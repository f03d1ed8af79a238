/**
 * Pending `elicitation/create` requests of a chat's session, oldest first
 * (as permissionQueue.ts keeps permission requests): each waits for the
 * user, is shown in the chat while it waits, and is answered `cancel` on
 * Stop, disconnect, a new session or when the chat closes. What the agent
 * sent is read first (shared/elicitation.ts): a form the chat cannot show or
 * a URL it will not open is declined at once, and the chat says why.
 */
import type { CreateElicitationRequest, CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { type Disposable, Emitter } from '../shared/events';
import {
  checkAnswer,
  cut,
  MAX_TEXT_CHARS,
  MAX_URL_CHARS,
  readElicitationSchema,
  refuse,
  type ElicitationField,
  type ElicitationView,
  type Read,
} from '../shared/elicitation';
import { redactor } from '../secrets/redactor';
import { WaitingRequests } from './waitingRequests';

/** Requests waiting at once, at most: more are answered `cancel` at once, and the chat says so once. */
export const MAX_PENDING_ELICITATIONS = 8;

const CANCEL: CreateElicitationResponse = { action: 'cancel' };
const DECLINE: CreateElicitationResponse = { action: 'decline' };

interface Pending {
  readonly view: ElicitationView;
  readonly fields: readonly ElicitationField[];
  /** URL mode: the agent's id of it (`elicitation/complete` names it). */
  readonly elicitationId?: string;
  readonly resolve: (response: CreateElicitationResponse) => void;
}

/** What the queue needs of its host: opening a URL the user agreed to (VS Code's external opener). */
export type OpenExternal = (url: string) => Promise<boolean>;

export class ElicitationQueue implements Disposable {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  /** A line for the transcript: a request refused (and why), or answered. */
  private readonly _onDidSay = new Emitter<{ level: 'info' | 'warning'; text: string }>();
  readonly onDidSay = this._onDidSay.event;
  private readonly pending = new WaitingRequests<Pending, CreateElicitationResponse>(MAX_PENDING_ELICITATIONS, () =>
    this._onDidChange.fire(),
  );
  private nextId = 0;

  constructor(private readonly openExternal: OpenExternal) {}

  get views(): ElicitationView[] {
    return this.pending.items.map((p) => p.view);
  }

  /** Queues a request of this chat's session; `toolTitle`: the tool call it is about, as the chat shows it. */
  request(
    params: CreateElicitationRequest,
    toolTitle: string | undefined,
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    if (this.pending.full) {
      if (this.pending.refuse()) {
        this.say(
          'warning',
          `The agent asked more than ${MAX_PENDING_ELICITATIONS} questions at once: the rest were cancelled.`,
        );
      }
      return Promise.resolve(CANCEL);
    }
    const read = this.read(params, toolTitle);
    if (!read.ok) {
      this.say('warning', `The agent asked a question the chat does not show: ${read.why}. It was declined.`);
      return Promise.resolve(DECLINE);
    }
    // The agent may withdraw it ($/cancel_request, or the connection closed).
    return new Promise((resolve) => this.pending.add({ ...read.value, resolve }, signal, CANCEL));
  }

  /**
   * The user's answer to elicitation `id`: a form's values (checked again here: one that does not fit is ignored),
   * a URL opened (through VS Code's opener, which may ask too), declined or cancelled.
   */
  async answer(id: string, action: 'accept' | 'decline' | 'cancel', values?: Record<string, unknown>): Promise<void> {
    const item = this.pending.items.find((p) => p.view.id === id);
    if (!item) return;
    if (action !== 'accept') return this.pending.settle(item, { action });
    if (item.view.mode === 'url') {
      const url = item.view.url;
      this.pending.settle(item, { action: 'accept' });
      if (await this.openExternal(url)) {
        this.say('info', `Opened ${item.view.host}: the agent goes on once you are done there.`);
      }
      return;
    }
    const checked = checkAnswer(item.fields, values ?? {});
    if (checked.ok) this.pending.settle(item, { action: 'accept', content: checked.content });
  }

  /** `elicitation/complete`: the agent says a URL request is done; one still waiting for the user goes. */
  complete(elicitationId: string): void {
    const item = this.pending.items.find((p) => p.elicitationId === elicitationId);
    if (item) this.pending.settle(item, CANCEL);
  }

  cancelAll(): void {
    this.pending.settleAll(CANCEL);
  }

  dispose(): void {
    this.cancelAll();
    this._onDidChange.dispose();
    this._onDidSay.dispose();
  }

  private read(params: CreateElicitationRequest, toolTitle: string | undefined): Read<Omit<Pending, 'resolve'>> {
    const id = `elicit-${++this.nextId}`;
    // Shown in the view: the agent's words, secrets redacted, bounded.
    const message = redactor.redact(typeof params.message === 'string' ? params.message.slice(0, MAX_TEXT_CHARS) : '');
    const about = toolTitle !== undefined ? { toolTitle: cut(toolTitle) } : {};
    if (params.mode === 'form') {
      const form = readElicitationSchema((params as { requestedSchema?: unknown }).requestedSchema);
      if (!form.ok) return form;
      const fields = redactor.redactStrings(form.value.fields);
      const title = form.value.title !== undefined ? { title: redactor.redact(form.value.title) } : {};
      return { ok: true, value: { view: { mode: 'form', id, message, ...about, ...title, fields }, fields } };
    }
    if (params.mode === 'url') {
      const raw = params as { url?: unknown; elicitationId?: unknown };
      const url = readElicitationUrl(raw.url);
      if (!url.ok) return url;
      const elicitationId = typeof raw.elicitationId === 'string' ? { elicitationId: raw.elicitationId } : {};
      return {
        ok: true,
        value: { view: { mode: 'url', id, message, ...about, ...url.value }, fields: [], ...elicitationId },
      };
    }
    return refuse(`it is of a kind the chat does not know (${cut(String(params.mode))})`);
  }

  private say(level: 'info' | 'warning', text: string): void {
    this._onDidSay.fire({ level, text });
  }
}

/**
 * A URL the chat may offer to open: http or https only, no user name or password in it, at most MAX_URL_CHARS.
 * Returns it as the browser will reach it, with its host (punycode: a look-alike name shows as what it is).
 */
export function readElicitationUrl(raw: unknown): Read<{ url: string; host: string }> {
  if (typeof raw !== 'string' || raw.length === 0) return refuse('it gave no URL');
  if (raw.length > MAX_URL_CHARS) return refuse(`its URL is longer than ${MAX_URL_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('its URL is not one');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`its URL is a ${cut(url.protocol)} link (only http and https are opened)`);
  }
  if (url.username !== '' || url.password !== '') return refuse('its URL carries a user name or password');
  if (url.host === '') return refuse('its URL names no host');
  return { ok: true, value: { url: url.href, host: url.host } };
}
