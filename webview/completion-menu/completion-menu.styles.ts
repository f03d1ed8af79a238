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
  .completion-option { padding: 2px 8px; cursor: pointer; overflow-wrap: anywhere; }
  .completion-option:hover { background: var(--vscode-list-hoverBackground, transparent); }
  .completion-option.active {
    color: var(--vscode-editorSuggestWidget-selectedForeground, var(--vscode-list-activeSelectionForeground, inherit));
    background: var(--vscode-editorSuggestWidget-selectedBackground, var(--vscode-list-activeSelectionBackground, rgba(128, 128, 128, 0.3)));
  }
  .slash-name, .mention-label { font-weight: 600; }
  .slash-hint { font-style: italic; }
  .slash-description, .mention-detail { display: block; font-size: 0.9em; }
  .mention-detail { opacity: 0.8; }
  .completion-option .codicon { vertical-align: text-bottom; margin-right: 4px; }
`;
