/**
 * How an element asks the host for something: it dispatches `acp-to-host`,
 * which bubbles out of every shadow root to <acp-chat-app>, the one element
 * that talks to the host (host.ts). An element so depends on no channel, and
 * a test can listen for what it asks.
 */
import type { WebviewMessage } from '../../src/shared/page/pageMessages';

export function toHost(from: EventTarget, message: WebviewMessage): void {
  from.dispatchEvent(new CustomEvent('acp-to-host', { detail: message, bubbles: true, composed: true }));
}

declare global {
  interface GlobalEventHandlersEventMap {
    'acp-to-host': CustomEvent<WebviewMessage>;
  }
}
