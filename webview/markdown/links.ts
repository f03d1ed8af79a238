/**
 * The link element for agent Markdown (which targets may be links:
 * linkTarget.ts). A clicked link is never followed by the webview: the host
 * gets `openLink` and decides (see src/views/linkOpener.ts).
 */
import { toHost } from '../shared/to-host';

/**
 * A clickable link. It has no `href` on purpose: with one, VS Code's own
 * webview click handler (and middle-click, drag, "open in new window") could
 * open it without asking our host. `role="link"` and `tabindex` keep it a
 * link for keyboards and screen readers. An element, not a Lit template (see
 * render-inline.ts).
 */
export function linkTo(target: string, content: Node, title?: string | null): HTMLElement {
  const a = document.createElement('a');
  a.className = 'link';
  a.setAttribute('role', 'link');
  a.tabIndex = 0;
  a.dataset['href'] = target;
  a.title = title || target;
  a.addEventListener('click', onActivate);
  a.addEventListener('keydown', onKey);
  a.append(content);
  return a;
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
