/**
 * <acp-markdown .text=${string}>: agent Markdown, rendered as it streams.
 *
 * marked is used as a lexer only; tokens become Lit templates, so agent text
 * only ever reaches the DOM as text nodes and escaped attribute values: no
 * innerHTML anywhere. Links go to the host (`openLink`), images are never
 * loaded, raw HTML is shown as text. Setting `text` to a longer string that
 * starts with the previous one costs the new part only (MarkdownStream).
 */
import { html, LitElement, type PropertyValues } from 'lit';
import type { TextGrowth } from '../shared/appended-entries';
import { MarkdownStream } from './markdown-stream';
import { markdownStyles } from './markdown.styles';
import { measureScrollbar, scrollOnDemand } from './side-scroll';
// The code blocks' copy button (code-block.ts), defined with the element that shows them.
import './code/copy-button';

export class Markdown extends LitElement {
  static override properties = { text: { attribute: false }, growth: { attribute: false }, breaks: { type: Boolean } };
  declare text: string;
  /** Single newlines are line breaks (for tool output, which is seldom Markdown). A change re-renders the text. */
  declare breaks: boolean;
  /**
   * Optional, set with `text` when the new text is known to be the previous
   * one plus appended text: the update then never looks at the whole text.
   */
  declare growth: TextGrowth | undefined;

  static override styles = markdownStyles;

  private stream = new MarkdownStream();

  constructor() {
    super();
    this.text = '';
    this.breaks = false;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    if (root instanceof ShadowRoot) scrollOnDemand(root);
    return root;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    measureScrollbar();
  }

  /**
   * Work done since this element was created (characters lexed, top-level
   * blocks rendered): tests and benchmarks check that streaming keeps it linear.
   */
  get work(): { readonly lexedChars: number; readonly renderedBlocks: number } {
    return { ...this.stream.work };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('breaks')) this.stream = new MarkdownStream({ breaks: this.breaks });
    if (changed.has('text') || changed.has('breaks')) {
      this.stream.update(typeof this.text === 'string' ? this.text : '', this.growth);
    }
  }

  override render() {
    return html`<div class="markdown">${this.stream.view()}</div>`;
  }
}

customElements.define('acp-markdown', Markdown);

declare global {
  interface HTMLElementTagNameMap {
    'acp-markdown': Markdown;
  }
}
