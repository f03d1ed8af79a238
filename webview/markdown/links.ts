/**
 * The link element for agent Markdown (which targets may be links:
 * linkTarget.ts). A clicked link is never followed by the webview: the host
 * gets `openLink` and decides (see src/views/linkOpener.ts).
 */
import { html, type TemplateResult } from 'lit';
import { toHost } from '../shared/to-host';

/**
 * A clickable link. It has no `href` on purpose: with one, VS Code's own
 * webview click handler (and middle-click, drag, "open in new window") could
 * open it without asking our host. `role="link"` and `tabindex` keep it a
 * link for keyboards and screen readers.
 */
export function linkTo(target: string, content: unknown, title?: string | null): TemplateResult {
  return html`<a class="link" role="link" tabindex="0" data-href=${target} title=${title || target}
    @click=${onActivate} @keydown=${onKey}>${content}</a>`;
}

function onActivate(event: Event): void {
  event.preventDefault();
  event.stopPropagation();
  const link = event.currentTarget as HTMLElement;
  const href = link.dataset['href'];
  if (href) toHost(link, { type: 'openLink', href });
}

function onKey(event: KeyboardEvent): void {
  if (event.key === 'Enter') onActivate(event);
}
