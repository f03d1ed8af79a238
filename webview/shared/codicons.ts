/**
 * The few codicons the chat uses, for elements with shadow roots.
 *
 * The document loads the codicon font (its `@font-face` applies inside shadow
 * roots too), but codicon.css's `.codicon-NAME` rules do not cross a shadow
 * boundary, so each element adopts these rules instead. Code points are from
 * @vscode/codicons' codicon.csv; only the icons listed here can be used, which
 * keeps the bundle from carrying all ~500 of them.
 */
import { css, html, unsafeCSS, type CSSResult, type TemplateResult } from 'lit';

const codePoints = {
  'arrow-down': 0xea9a,
  'arrow-up': 0xeaa1,
  'arrow-swap': 0xebcb,
  attach: 0xec34,
  'bell-dot': 0xeb9a,
  check: 0xeab2,
  'check-all': 0xebb1,
  checklist: 0xeab3,
  'chevron-down': 0xeab4,
  'chevron-right': 0xeab6,
  account: 0xeb99,
  'circle-large': 0xebb5,
  'circle-large-filled': 0xebb4,
  'circle-slash': 0xeabd,
  close: 0xea76,
  comment: 0xea6b,
  copy: 0xebcc,
  'debug-disconnect': 0xead0,
  'debug-restart': 0xead2,
  'debug-stop': 0xead7,
  'desktop-download': 0xea78,
  'diff-added': 0xeadc,
  'diff-modified': 0xeade,
  'diff-removed': 0xeadf,
  discard: 0xeae2,
  edit: 0xea73,
  ellipsis: 0xea7c,
  error: 0xea87,
  eye: 0xea70,
  file: 0xea7b,
  'file-media': 0xeaea,
  fold: 0xeaf5,
  folder: 0xea83,
  globe: 0xeb01,
  'go-to-file': 0xea94,
  history: 0xea82,
  hubot: 0xeb08,
  info: 0xea74,
  insert: 0xec11,
  lightbulb: 0xea61,
  'link-external': 0xeb14,
  'list-selection': 0xeb85,
  loading: 0xeb19,
  move: 0xeb22,
  pass: 0xeba4,
  plug: 0xeb2d,
  question: 0xeb32,
  refresh: 0xeb37,
  'repo-forked': 0xea63,
  search: 0xea6d,
  send: 0xec0f,
  settings: 0xeb52,
  'settings-gear': 0xeb51,
  shield: 0xeb53,
  terminal: 0xea85,
  tools: 0xeb6d,
  trash: 0xea81,
  worktree: 0xec7e,
  'empty-window': 0xeae4,
  warning: 0xea6c,
} as const;

export type CodiconName = keyof typeof codePoints;

const iconRules = Object.entries(codePoints)
  .map(([name, point]) => `.codicon-${name}::before { content: "\\${point.toString(16)}"; }`)
  .join('\n');

/** Add to an element's `styles` to use {@link codicon} in its shadow root. */
export const codiconStyles: CSSResult = css`
  .codicon {
    font: normal normal normal 16px/1 codicon;
    display: inline-block;
    text-align: center;
    text-decoration: none;
    text-rendering: auto;
    -webkit-font-smoothing: antialiased;
    user-select: none;
    flex: none;
  }
  .codicon.spin { animation: codicon-spin 1.5s steps(30) infinite; }
  @keyframes codicon-spin { 100% { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .codicon.spin { animation: none; } }
  ${unsafeCSS(iconRules)}
`;

/** A decorative icon (hidden from screen readers: pair it with text). */
export function codicon(name: CodiconName, extraClass = ''): TemplateResult {
  return html`<span class="codicon codicon-${name} ${extraClass}" aria-hidden="true"></span>`;
}

/** {@link codicon} as an element, for views built without Lit templates. */
export function codiconElement(name: CodiconName, extraClass = ''): HTMLElement {
  const span = document.createElement('span');
  span.className = extraClass ? `codicon codicon-${name} ${extraClass}` : `codicon codicon-${name}`;
  span.setAttribute('aria-hidden', 'true');
  return span;
}

/** Visually hidden text for screen readers; shared so that every element hides it the same way. */
export const srOnlyStyles: CSSResult = css`
  .sr-only {
    position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
    overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
`;
