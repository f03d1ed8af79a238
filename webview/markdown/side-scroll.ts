/**
 * Sideways scrolling on demand, for code blocks and tables wider than the view.
 *
 * Every element that scrolls costs Chromium work in each frame for as long
 * as it is in the page, even off screen inside a group that
 * content-visibility skips (measured on 1 MB of streamed code blocks: the
 * frames' Layerize went from 10 to 52 ms per tenth of the stream as the
 * blocks accumulated, and stayed at 8 without scroll containers). A long
 * chat's frames would get slower with every code block it ever showed. So
 * such an element clips what overflows (`overflow-x: clip`, which is not a
 * scroll container) and becomes one (class `scrolls`) only while the pointer
 * or the focus is in it and it is wider than its box; once scrolled it stays
 * one, and keeps its place. Like the editor's, its scrollbar shows when it is
 * pointed at.
 *
 * Nothing moves when the scrollbar appears: the room it takes is reserved
 * below the content at rest (`--acp-scrollbar`, measured once per page by
 * `measureScrollbar`; 0 where scrollbars overlay the content).
 */
import { css } from 'lit';

/** The class of an element that scrolls sideways on demand. */
export const SIDE_SCROLL = 'side-scroll';

/** Styles for the shadow root the elements are in; the room for the scrollbar is each element's own rule. */
export const sideScrollStyles = css`
  .side-scroll { overflow-x: clip; }
  .side-scroll.scrolls {
    overflow-x: auto;
    scrollbar-width: thin;
    scrollbar-color: var(--vscode-scrollbarSlider-background, auto) transparent;
  }
`;

/**
 * Makes the side-scroll elements in `root` (a shadow root) scroll while pointed at or focused.
 * On the root, not its host: the pointer moving between two elements of one shadow tree is not
 * told to the host (the event's target and related target are both the host there).
 */
export function scrollOnDemand(root: ShadowRoot): void {
  const arrive = (event: Event) => wake(sideScroller(event));
  const leave = (event: Event) => rest(sideScroller(event), (event as PointerEvent | FocusEvent).relatedTarget);
  root.addEventListener('pointerover', arrive);
  root.addEventListener('focusin', arrive);
  root.addEventListener('pointerout', leave);
  root.addEventListener('focusout', leave);
}

/** The side-scroll element an event happened in, if any. */
function sideScroller(event: Event): HTMLElement | undefined {
  for (const node of event.composedPath()) {
    if (node instanceof HTMLElement && node.classList.contains(SIDE_SCROLL)) return node;
  }
  return undefined;
}

function wake(element: HTMLElement | undefined): void {
  if (!element || element.classList.contains('scrolls')) return;
  // One layout read, when the pointer or focus arrives: never per frame or chunk.
  if (element.scrollWidth > element.clientWidth) element.classList.add('scrolls');
}

function rest(element: HTMLElement | undefined, goingTo: EventTarget | null): void {
  if (!element?.classList.contains('scrolls')) return;
  if (goingTo instanceof Node && element.contains(goingTo)) return;
  const focused = (element.getRootNode() as ShadowRoot | Document).activeElement;
  if (element.scrollLeft !== 0 || (focused && element.contains(focused))) return;
  element.classList.remove('scrolls');
}

let measured = false;

/**
 * Sets `--acp-scrollbar` on the document to the height a thin horizontal
 * scrollbar takes (the same scrollbar-width as a scrolling side-scroll
 * element). Once per page, before the first Markdown is laid out: one layout
 * of a small element.
 */
export function measureScrollbar(): void {
  if (measured) return;
  measured = true;
  const probe = document.createElement('div');
  probe.style.cssText =
    'position:absolute;top:-100px;left:0;width:50px;height:50px;overflow-x:scroll;scrollbar-width:thin;visibility:hidden';
  document.body.append(probe);
  const height = Math.max(0, probe.offsetHeight - probe.clientHeight);
  probe.remove();
  document.documentElement.style.setProperty('--acp-scrollbar', `${height}px`);
}
