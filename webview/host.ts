/**
 * The webview's side of the host protocol: typed, parsed, and the only place
 * that touches `acquireVsCodeApi`.
 */
import { hostMessageSchema, type HostMessage, type WebviewMessage } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = typeof acquireVsCodeApi === 'function'
  ? acquireVsCodeApi()
  // Outside VS Code (component tests, benchmarks) messages go to the page.
  : { postMessage: (m) => window.dispatchEvent(new CustomEvent('acp-webview-message', { detail: m })), getState: () => undefined, setState: () => undefined };

export function postToHost(message: WebviewMessage): void {
  api.postMessage(message);
}

export function onHostMessage(listener: (message: HostMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent) => {
    const parsed = hostMessageSchema.safeParse(event.data);
    if (parsed.success) listener(parsed.data);
    else console.warn('Dropped a malformed message from the extension', parsed.error.message);
  });
}
