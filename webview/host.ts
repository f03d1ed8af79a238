/**
 * The webview's side of the host protocol: typed, parsed, and the only place
 * that touches `acquireVsCodeApi` (messages and the view's saved UI state).
 */
import { z } from 'zod/mini';
import { hostMessageSchema, type HostMessage } from '../src/shared/page/protocol';
import type { WebviewMessage } from '../src/shared/page/pageMessages';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : // Outside VS Code (component tests, benchmarks) messages go to the page.
      {
        postMessage: (m) => window.dispatchEvent(new CustomEvent('acp-webview-message', { detail: m })),
        getState: () => undefined,
        setState: () => undefined,
      };

/** The chat the page shows: named in every message, so the host acts on the chat the user saw. */
let shownChatId: string | undefined;

export function setShownChat(chatId: string): void {
  shownChatId = chatId || undefined;
}

export function postToHost(message: WebviewMessage): void {
  api.postMessage(shownChatId === undefined || 'chatId' in message ? message : { ...message, chatId: shownChatId });
}

export function onHostMessage(listener: (message: HostMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent) => {
    const parsed = hostMessageSchema.safeParse(event.data);
    if (parsed.success) listener(parsed.data);
    else console.warn('Dropped a malformed message from the extension', parsed.error.message);
  });
}

/**
 * What the view remembers while VS Code hides it (a hidden webview view is
 * destroyed and rebuilt): never model state, only how the user left the UI.
 */
const uiStateSchema = z.object({
  /** Distance of the transcript's viewport from its newest end, in CSS pixels (0: pinned). */
  scrollFromEnd: z.optional(z.number().check(z.nonnegative())),
  /** The chat whose transcript `scrollFromEnd` is about. */
  scrollChat: z.optional(z.string()),
  /** Entry ids of the tool cards the user expanded. */
  expanded: z.optional(z.array(z.string())),
  /** The unsent text in the composer, by chat id. */
  drafts: z.optional(z.catchall(z.object({}), z.string())),
});
export type UiState = z.infer<typeof uiStateSchema>;

/** Coalesces saves: setState crosses to the extension host, so it is not done per keystroke or scroll event. */
const SAVE_DELAY_MS = 300;

let uiState: UiState | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** The saved UI state; anything unreadable (another version's shape) counts as nothing saved. */
export function loadUiState(): UiState {
  if (!uiState) {
    const parsed = uiStateSchema.safeParse(api.getState());
    uiState = parsed.success ? parsed.data : {};
  }
  return uiState;
}

/** Merges `patch` into the UI state and saves it shortly (or when the page goes away). */
export function saveUiState(patch: Partial<UiState>): void {
  uiState = { ...loadUiState(), ...patch };
  if (saveTimer === undefined) saveTimer = setTimeout(flushUiState, SAVE_DELAY_MS);
  flushWhenHidden();
}

let flushesWhenHidden = false;

/**
 * A view being hidden may be torn down before the timer fires: flush then.
 * Listened for from the first save on, so that importing this module touches
 * no page (the Markdown renderer is unit-tested in Node).
 */
function flushWhenHidden(): void {
  if (flushesWhenHidden) return;
  flushesWhenHidden = true;
  window.addEventListener('pagehide', flushUiState);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushUiState();
  });
}

function flushUiState(): void {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (uiState) api.setState(uiState);
}
