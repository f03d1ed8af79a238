/**
 * A link that asks the host to act (`message`: open a file, a URL) when it is
 * clicked or Enter is pressed on it: nothing opens by itself, and the host
 * decides (src/views/linkOpener.ts).
 */
import { html, type TemplateResult } from 'lit';
import type { WebviewMessage } from '../../src/shared/page/pageMessages';
import { toHost } from './to-host';

export function hostLink(message: WebviewMessage, title: string, content: unknown, className = 'link'): TemplateResult {
  const ask = (event: Event) => {
    event.preventDefault();
    toHost(event.currentTarget!, message);
  };
  return html`<a role="link" tabindex="0" class=${className} title=${title} @click=${ask}
    @keydown=${(event: KeyboardEvent) => event.key === 'Enter' && ask(event)}>${content}</a>`;
}
