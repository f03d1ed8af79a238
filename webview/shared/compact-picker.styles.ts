/**
 * The composer toolbar's look (as VS Code's own chat toolbar): pickers that
 * show only their value, borderless until pointed at, and icon buttons.
 */
import { css } from 'lit';

export const compactPickerStyles = css`
  /*
   * The pickers share the toolbar's width fairly: each gets an equal part (flex-basis 0), none more than its value needs
   * (max-content), and what a short one leaves goes to the others. At 300 px the agent, the mode and the model all stay
   * readable ("Claude C…", "Manual", "Default (…") instead of one long model name leaving the others two letters.
   */
  .picker { position: relative; display: inline-flex; align-items: center; flex: 1 1 0; min-width: 0; max-width: max-content; }
  /* The drop-down mark, drawn so that the select is no wider than its text. */
  .picker::after {
    content: '\\eab4'; position: absolute; right: 2px; pointer-events: none;
    font: normal normal normal 12px/1 codicon; color: var(--vscode-icon-foreground, currentColor);
  }
  /* As wide as the chosen value (not the longest choice), shrinking with an ellipsis in a narrow view. */
  select.compact {
    appearance: none; field-sizing: content; min-width: 4em; max-width: 100%; text-overflow: ellipsis; cursor: pointer;
    color: var(--vscode-foreground); background: transparent; border: 1px solid transparent; border-radius: 3px;
    padding: 1px 15px 1px 3px; font: inherit;
  }
  select.compact:hover:not(:disabled) { background: var(--vscode-toolbar-hoverBackground); }
  select.compact:disabled { opacity: 0.6; cursor: default; }
  /* The drop-down list is drawn from the options' colours: the select itself is transparent. */
  select.compact option, select.compact optgroup { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); }
  button.icon {
    display: inline-flex; align-items: center; gap: 4px; padding: 3px; border: none; border-radius: 3px; cursor: pointer; font: inherit;
    color: var(--vscode-icon-foreground, var(--vscode-foreground)); background: none;
  }
  button.icon:hover:not(:disabled) { background: var(--vscode-toolbar-hoverBackground); }
  button.icon:disabled { opacity: 0.6; cursor: default; }
  select:focus-visible, button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
`;
