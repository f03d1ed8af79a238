import { css } from 'lit';
import { codiconStyles, srOnlyStyles } from '../shared/codicons';
import { pieceStyles } from '../shared/text-pieces';

export const toolCardStyles = [
  codiconStyles,
  srOnlyStyles,
  pieceStyles,
  css`
  :host { display: block; }
  .card {
    border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, rgba(128, 128, 128, 0.35)));
    border-radius: 4px;
  }
  .head {
    display: flex; align-items: flex-start; gap: 6px; width: 100%; box-sizing: border-box;
    padding: 4px 6px; border: none; background: transparent; color: inherit; font: inherit; text-align: left; cursor: pointer;
  }
  .head:hover { background: var(--vscode-list-hoverBackground, transparent); }
  .head:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .head .codicon { margin-top: 1px; }
  .chevron, .kind { color: var(--vscode-descriptionForeground); }
  .title { flex: 1; min-width: 0; overflow-wrap: anywhere; }
  .status { margin-left: auto; }
  /* charts.green, not testing.iconPassed: the latter is #73c991 in the light themes, 1.9:1 on a light side bar. */
  .status.completed { color: var(--vscode-charts-green, var(--vscode-testing-iconPassed, inherit)); }
  .status.failed { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground, inherit)); }
  .status.cancelled, .status.pending, .status.in_progress { color: var(--vscode-descriptionForeground); }
  .body { padding: 4px 8px 8px; border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, rgba(128, 128, 128, 0.35))); }
  .body > * { margin: 6px 0; }
  pre {
    margin: 6px 0; padding: 4px 6px; white-space: pre-wrap; overflow-wrap: anywhere;
    font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 12px);
    background: var(--vscode-textCodeBlock-background, transparent);
  }
  .locations { list-style: none; padding: 0; }
  .subagent { margin-top: 6px; padding-left: 8px; border-left: 2px solid var(--vscode-textBlockQuote-border, var(--vscode-panel-border, currentColor)); display: grid; gap: 4px; min-width: 0; }
  .subagent-head { display: flex; align-items: center; gap: 4px; font-weight: 600; color: var(--vscode-descriptionForeground); }
  .steps { flex: none; color: var(--vscode-descriptionForeground); font-size: 0.9em; }
  .tool-name { margin: 0 0 4px; color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; }
  /* Links by role (not inline text links): at least 24px tall to be easy targets (WCAG 2.5.8). */
  .link { color: var(--vscode-textLink-foreground); text-decoration: none; overflow-wrap: anywhere; cursor: pointer; display: inline-block; min-height: 24px; line-height: 24px; }
  .link:hover { color: var(--vscode-textLink-activeForeground, var(--vscode-textLink-foreground)); text-decoration: underline; }
  .link:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  .link .codicon { font-size: 14px; vertical-align: text-bottom; }
  .placeholder, .quiet { color: var(--vscode-descriptionForeground); font-style: italic; }
`,
];
