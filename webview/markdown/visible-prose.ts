/**
 * A rendered Markdown block with the bidi controls that would reorder its
 * text, and runs of combining marks, made visible (src/shared/text/visibleText.ts):
 * every text node it made, after the block is rendered, rather than at each
 * of the places the renderer makes one. A block without any costs one test of
 * its text.
 */
import { hasHiddenProse, visibleProse } from '../../src/shared/text/visibleText';

export function showHidden<T>(view: T): T {
  if (!(view instanceof Node) || !hasHiddenProse(view.textContent ?? '')) return view;
  const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    const shown = visibleProse(text.data);
    if (shown !== text.data) text.data = shown;
  }
  return view;
}
