/**
 * <acp-terminal-output .output .exitCode .signal>: shell output with its ANSI
 * colours, in the theme's terminal colours, and how the command ended.
 */
import { css, html, LitElement, nothing, unsafeCSS, type PropertyValues } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { codicon, codiconStyles } from '../shared/codicons';
import { ansiSegments, inPieces, type Segment } from './ansi-segments';
import { pieceStyles } from '../shared/text-pieces';

/** Only the tail is shown past this: a chatty build must not bloat the transcript. */
const MAX_CHARS = 100_000;

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;
/** VS Code's default dark terminal colours, for hosts that do not define the variables. */
const FALLBACKS = [
  '#000000',
  '#cd3131',
  '#0dbc79',
  '#e5e510',
  '#2472c8',
  '#bc3fbc',
  '#11a8cd',
  '#e5e5e5',
  '#666666',
  '#f14c4c',
  '#23d18b',
  '#f5f543',
  '#3b8eea',
  '#d670d6',
  '#29b8db',
  '#e5e5e5',
];

/**
 * Like VS Code's terminal (terminal.integrated.minimumContrastRatio), colours
 * are kept readable on the theme's background: the lightness of a foreground
 * colour is clamped (light text on dark themes, dark text on light ones).
 * Text on a coloured background keeps its colour: that pair was chosen together.
 */
function readable(colour: string): string {
  return `oklch(from ${colour} clamp(var(--ansi-min-l), l, var(--ansi-max-l)) c h)`;
}

const colourRules = [false, true]
  .flatMap((bright) =>
    COLOURS.map((name, i) => {
      const cls = bright ? `bright-${name}` : name;
      const variable = `--vscode-terminal-ansi${bright ? 'Bright' : ''}${name[0]!.toUpperCase()}${name.slice(1)}`;
      const value = `var(${variable}, ${FALLBACKS[i + (bright ? 8 : 0)]})`;
      return `.fg-${cls} { color: ${readable(value)}; } .bg-${cls} { background-color: ${value}; }`;
    }),
  )
  .join('\n');

export class TerminalOutput extends LitElement {
  static override properties = {
    output: { attribute: false },
    exitCode: { attribute: false },
    signal: { attribute: false },
  };
  declare output: string;
  declare exitCode: number | null | undefined;
  declare signal: string | null | undefined;
  private segments: Segment[] = [];
  private hiddenChars = 0;

  static override styles = [
    codiconStyles,
    pieceStyles,
    css`
    /* Lightness bounds for foreground colours: see readable(). */
    :host { display: block; --ansi-min-l: 0.72; --ansi-max-l: 1; }
    :host-context(.vscode-light), :host-context(.vscode-high-contrast-light) { --ansi-min-l: 0; --ansi-max-l: 0.5; }
    pre {
      margin: 0; padding: 4px 6px; white-space: pre-wrap; overflow-wrap: anywhere;
      font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 12px);
      color: var(--vscode-terminal-foreground, var(--vscode-foreground));
      background: var(--vscode-terminal-background, var(--vscode-editor-background, transparent));
      border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
    }
    .has-bg { --ansi-min-l: 0; --ansi-max-l: 1; }
    .bold { font-weight: bold; }
    .dim { opacity: 0.6; }
    .italic { font-style: italic; }
    .underline { text-decoration: underline; }
    .strikethrough { text-decoration: line-through; }
    .hidden { visibility: hidden; }
    ${unsafeCSS(colourRules)}
    .end, .cut { margin: 2px 0; color: var(--vscode-descriptionForeground); }
    .end .codicon { margin-right: 4px; }
    .end.failed .codicon { color: var(--vscode-errorForeground); }
    .end.passed .codicon { color: var(--vscode-charts-green, var(--vscode-testing-iconPassed, inherit)); }
  `,
  ];

  constructor() {
    super();
    this.output = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('output')) return;
    this.hiddenChars = Math.max(0, this.output.length - MAX_CHARS);
    this.segments = ansiSegments(this.hiddenChars ? this.output.slice(this.hiddenChars) : this.output);
  }

  override render() {
    return html`
      ${this.hiddenChars ? html`<p class="cut">Earlier output not shown (${this.hiddenChars} characters).</p>` : nothing}
      ${this.segments.length ? html`<pre>${renderPieces(this.segments)}</pre>` : nothing}
      ${this.renderEnd()}
    `;
  }

  private renderEnd() {
    // The words say it; the icon's colour only repeats it (error red is not readable as text on every theme).
    if (this.signal) return html`<p class="end failed">${codicon('error')}Ended by signal ${this.signal}</p>`;
    if (typeof this.exitCode === 'number') {
      const ok = this.exitCode === 0;
      return html`<p class="end ${ok ? 'passed' : 'failed'}">${codicon(ok ? 'pass' : 'error')}Exit code ${this.exitCode}</p>`;
    }
    return nothing;
  }
}

/** The segments, in pieces when their text is long (see text-pieces.ts). */
function renderPieces(segments: readonly Segment[]) {
  const pieces = inPieces(segments);
  return pieces.length === 1
    ? segments.map(renderSegment)
    : pieces.map((piece) => html`<span class="piece">${piece.map(renderSegment)}</span>`);
}

function renderSegment(s: Segment) {
  const classes = s.background || s.classes.includes('bg-') ? `${s.classes} has-bg` : s.classes;
  if (!s.color && !s.background) return classes ? html`<span class=${classes}>${s.text}</span>` : s.text;
  return html`<span class=${classes} ${ref(paint(s))}>${s.text}</span>`;
}

/**
 * Sets colours through CSSOM, which the CSP allows. (Lit's styleMap writes a
 * `style` attribute on first render, which `style-src` without
 * 'unsafe-inline' refuses.)
 */
function paint(s: Segment) {
  return (element?: Element) => {
    if (!(element instanceof HTMLElement)) return;
    element.style.color = s.color ? readable(s.color) : '';
    element.style.backgroundColor = s.background ?? '';
  };
}

customElements.define('acp-terminal-output', TerminalOutput);

declare global {
  interface HTMLElementTagNameMap {
    'acp-terminal-output': TerminalOutput;
  }
}
