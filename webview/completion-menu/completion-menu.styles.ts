import { css } from 'lit';

/** For the element that renders a {@link CompletionMenu}; the list opens above the text box. */
export const completionMenuStyles = css`
  .completion-list {
    position: absolute; left: 8px; right: 8px; bottom: 100%; z-index: 1;
    max-height: 40vh; overflow-y: auto; padding: 2px 0;
    color: var(--vscode-editorSuggestWidget-foreground, var(--vscode-foreground));
    background: var(--vscode-editorSuggestWidget-background, var(--vscode-editorWidget-background, var(--vscode-input-background)));
    border: 1px solid var(--vscode-editorSuggestWidget-border, var(--vscode-widget-border, var(--vscode-focusBorder)));
    box-shadow: 0 0 8px 2px var(--vscode-widget-shadow, transparent);
  }
  /*
   * One line per item, what does not fit cut with an ellipsis (an agent's
   * descriptions run to paragraphs: two of Claude Code's 40 commands filled
   * the list); the active item shows all of it, and every item's whole text
   * is its tooltip.
   */
  .completion-option { padding: 2px 8px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .completion-option.active { white-space: normal; overflow-wrap: anywhere; }
  .completion-option:hover { background: var(--vscode-list-hoverBackground, transparent); }
  .completion-option.active {
    color: var(--vscode-editorSuggestWidget-selectedForeground, var(--vscode-list-activeSelectionForeground, inherit));
    background: var(--vscode-editorSuggestWidget-selectedBackground, var(--vscode-list-activeSelectionBackground, rgba(128, 128, 128, 0.3)));
  }
  .slash-name, .mention-label { font-weight: 600; }
  .slash-hint { font-style: italic; }
  .slash-description, .mention-detail { margin-left: 2px; font-size: 0.9em; opacity: 0.8; }
  .completion-option .codicon { vertical-align: text-bottom; margin-right: 4px; }
`;
