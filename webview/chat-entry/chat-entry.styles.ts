/** Styles of <acp-chat-entry>: colours only from VS Code's theme variables. */
import { css } from 'lit';
import { codiconStyles, srOnlyStyles } from '../shared/codicons';
import { pieceStyles } from '../shared/text-pieces';

export const chatEntryStyles = [
  codiconStyles,
  srOnlyStyles,
  pieceStyles,
  css`
  /*
   * The list may skip an entry's rendering while it is off screen
   * (content-visibility, see message-list), which clips its paint to its
   * padding box: 2px of padding, taken back by the margins (the gap between
   * entries stays 8px), keep focus outlines at its edges whole.
   */
  :host { display: block; margin: 4px -2px; padding: 2px; }
  .role { font-size: 0.85em; font-weight: 600; color: var(--vscode-descriptionForeground, inherit); margin-bottom: 2px; }
  .user .role, .assistant .role { display: flex; align-items: center; gap: 6px; }
  /* A prompt's actions (Restore files to here, Edit, Retry, Branch), at the end of its role line. */
  .actions { margin-inline-start: auto; display: inline-flex; align-items: center; gap: 2px; }
  .actions button { display: inline-flex; align-items: center; gap: 3px; font: inherit; font-weight: normal; cursor: pointer;
    color: var(--vscode-descriptionForeground); background: none; border: 1px solid transparent; border-radius: 3px; padding: 0 4px; }
  .actions .codicon, .steered .codicon { font-size: 12px; }
  .steered { display: inline-flex; align-items: center; gap: 3px; font-weight: normal; }
  .actions button:hover { color: var(--vscode-foreground); background: var(--vscode-toolbar-hoverBackground); }
  /* Shown where the pointer or the keyboard is: every prompt has them, and the transcript stays calm. */
  .actions { opacity: 0; }
  .user:hover .actions, .assistant:hover .actions, .actions:focus-within { opacity: 1; }
  @media (hover: none) { .actions { opacity: 1; } }
  .actions button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  /* Edit in place: the prompt's text in a box, what sending does, Send and Cancel. */
  .edit-box { box-sizing: border-box; width: 100%; min-height: 3.5em; resize: vertical; font: inherit; line-height: 1.5;
    color: var(--vscode-input-foreground); background: var(--vscode-input-background);
    border: 1px solid var(--vscode-focusBorder); border-radius: 2px; padding: 4px 6px; }
  .edit-box:focus { outline: none; }
  .edit-note { margin: 4px 0; font-size: 0.85em; color: var(--vscode-descriptionForeground); }
  .edit-buttons { display: flex; gap: 6px; justify-content: flex-end; }
  .edit-buttons button { font: inherit; cursor: pointer; border-radius: 2px; padding: 2px 10px; border: 1px solid var(--vscode-button-border, transparent); }
  .edit-buttons .send { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
  .edit-buttons .send:hover { background: var(--vscode-button-hoverBackground); }
  .edit-buttons .cancel { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  .edit-buttons .cancel:hover { background: var(--vscode-button-secondaryHoverBackground); }
  .edit-buttons button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  .user {
    background: var(--vscode-input-background, transparent); color: var(--vscode-input-foreground, inherit);
    border: 1px solid var(--vscode-input-border, var(--vscode-contrastBorder, transparent)); border-radius: 4px; padding: 6px 8px;
  }
  .plain { white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.5; }

  details.thought { color: var(--vscode-descriptionForeground, inherit); }
  summary {
    display: flex; align-items: center; gap: 4px; cursor: pointer; list-style: none;
    border-radius: 3px; padding: 1px 2px; user-select: none;
  }
  summary::-webkit-details-marker { display: none; }
  summary:hover { color: var(--vscode-foreground, inherit); }
  summary:focus-visible { outline: 1px solid var(--vscode-focusBorder, currentColor); outline-offset: 1px; }
  .label { flex: none; font-weight: 600; }
  .preview { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-style: italic; }
  details[open] .preview { display: none; }
  .thought-text { margin: 4px 0 0 6px; padding-left: 10px; border-left: 2px solid var(--vscode-textBlockQuote-border, currentColor); }

  /* A compaction: a rule across the chat, its line on it, the summary under. */
  .compaction { color: var(--vscode-descriptionForeground, inherit); border-top: 1px dashed var(--vscode-panel-border, currentColor); padding-top: 6px; }
  .compaction-line { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 6px; align-items: start; }
  .compaction-line > .codicon { margin-top: 2px; }
  .compaction.error .compaction-line > .codicon { color: var(--vscode-errorForeground, inherit); }
  .compaction-summary { margin-top: 4px; }

  /* The icon, then the text (however long) in a column of its own; an action under the text, so that it never narrows it. */
  .notice { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 4px 6px; align-items: start; padding: 4px 8px;
    border-left: 3px solid var(--vscode-descriptionForeground, currentColor); }
  .notice > .notice-action { grid-column: 2; justify-self: start; }
  .notice > .codicon { margin-top: 2px; }
  .notice.info { color: var(--vscode-descriptionForeground, inherit); }
  .left-out { color: var(--vscode-descriptionForeground, inherit); font-style: italic; }
  /* Level colours on the bar and icon only: some themes' error colour is too faint for body text. */
  .notice.warning { border-color: var(--vscode-editorWarning-foreground, currentColor); }
  .notice.warning > .codicon { color: var(--vscode-editorWarning-foreground, inherit); }
  .notice.error { border-color: var(--vscode-errorForeground, currentColor); }
  .notice.error > .codicon { color: var(--vscode-errorForeground, inherit); }
  /* A notice's action is a primary button; "Open the whole message" a secondary one. */
  .notice-action, .open-whole { display: inline-flex; gap: 4px; align-items: center; font: inherit; cursor: pointer; padding: 2px 8px;
    border: 1px solid var(--vscode-button-border, transparent); }
  .notice-action:focus-visible, .open-whole:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  .notice-action { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
  .notice-action:hover { background: var(--vscode-button-hoverBackground); }
  .notice-action .codicon { margin-top: 0; color: inherit; }
  .cut-short { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 6px; padding: 4px 8px; color: var(--vscode-descriptionForeground, inherit);
    border-left: 3px solid var(--vscode-descriptionForeground, currentColor); }
  .open-whole { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  .open-whole:hover { background: var(--vscode-button-secondaryHoverBackground); }

  .fallback { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent)); border-radius: 4px; padding: 4px 8px; }
`,
];
