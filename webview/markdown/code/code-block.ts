/**
 * A fenced or indented code block: language, copy button, highlighted code.
 * The same template serves a block that is still streaming and a finished
 * one, so that Lit updates the element in place when the block completes.
 * Its <acp-copy-button> is defined by markdown.ts, the element that shows it.
 */
import { html, type TemplateResult } from 'lit';
import { highlight, highlightStreaming, languageOf, streamedWhole, type ChunkCache } from './highlight';

/** `streaming` and `streamed`: see BlockContext. */
export function codeBlock(
  code: string,
  info: string | undefined,
  { streaming, streamed }: { streaming?: ChunkCache; streamed?: ChunkCache },
): TemplateResult {
  const language = languageOf(info);
  const body = streaming
    ? highlightStreaming(code, language, streaming)
    : ((streamed && streamedWhole(code, language, streamed)) ?? highlight(code, language));
  const name = language.label ? `${language.label} code` : 'Code';
  // tabindex: the block scrolls sideways (on demand, see side-scroll.ts), and a keyboard user must be able to scroll it.
  return html`<div class="code-block" role="group" aria-label=${name}>
    <div class="code-head">
      <span class="code-lang">${language.label}</span>
      <acp-copy-button .text=${code} label="Copy code"></acp-copy-button>
    </div>
    <pre class="side-scroll" tabindex="0"><code>${body}</code></pre>
  </div>`;
}
