/**
 * <acp-permission-prompt .prompt=${PermissionPrompt}>: the agent asks to do
 * something. Shows what (title, kind, locations, diff, command) and offers
 * the extension's own buttons; the agent's option names are inert text.
 */
import { css, html, LitElement, nothing } from 'lit';
import { PERMISSION_LABELS, type PermissionChoice, type PermissionPrompt } from '../../src/shared/permissions';
import { codicon } from '../shared/codicons';
import { toHost } from '../shared/to-host';
import { toolCardStyles } from '../tool-card/tool-card.styles';
import { renderToolBody } from '../tool-card/tool-content';
import { kindLook } from '../tool-card/tool-kinds';
import { visibleName } from '../../src/shared/text/visibleText';

export class PermissionPromptElement extends LitElement {
  static override properties = { prompt: { attribute: false } };
  declare prompt: PermissionPrompt;

  static override styles = [
    ...toolCardStyles,
    css`
    /*
     * A column whose details give way: in the permissions area (at most half the view, see chat-app) the question and
     * the buttons always show, and the details (a diff, a command) shrink and scroll, down to a few lines, however
     * narrow the side bar (292 px as VS Code opens it) makes them wrap.
     */
    :host { display: flex; flex-direction: column; min-height: 0; flex: 0 1 auto; margin: 6px 8px; }
    section { display: flex; flex-direction: column; min-height: 0; flex: 0 1 auto; border: 1px solid var(--vscode-focusBorder, var(--vscode-contrastActiveBorder, currentColor)); border-radius: 4px; padding: 6px 8px; background: var(--vscode-editorWidget-background, transparent); }
    .ask { display: flex; gap: 6px; align-items: baseline; font-weight: 600; overflow-wrap: anywhere; }
    .ask .kind { font-weight: normal; color: var(--vscode-descriptionForeground); }
    .buttons { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; }
    .buttons button { font: inherit; border: 1px solid var(--vscode-button-border, transparent); padding: 3px 8px; cursor: pointer;
      color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    .buttons button.allow_once { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
    .buttons button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
    .scope { margin-top: 4px; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
    .ask, .buttons, .scope { flex: none; }
    /* A long input or diff scrolls inside the prompt: the buttons below it stay in reach. */
    .body { flex: 0 1 auto; min-height: 4.5em; max-height: 40vh; overflow: auto; }
    .body:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `,
  ];

  override render() {
    const p = this.prompt;
    const kind = kindLook(p.tool.toolKind);
    // What the user approves reads as it is: a bidi override cannot turn "gnp.exe" into "exe.png" here.
    const title = visibleName(p.tool.title) || kind.label;
    const scope = scopeOf(p.alwaysScope);
    return html`<section role="group" aria-label=${`Permission request: ${title}`}>
      <div class="ask">${codicon('warning')}<span>The agent asks to: <span class="title">${title}</span> <span class="kind">(${kind.label})</span></span></div>
      <div class="body" tabindex="0" role="region" aria-label="Details">${renderToolBody(p.tool)}</div>
      <div class="buttons" title=${p.agentOptions.length ? `The agent's options: ${p.agentOptions.join(' · ')}` : nothing}>${p.choices.map((c) => html`<button class=${c} title=${c === 'allow_always' && scope ? `Always allow: ${scope}` : nothing} @click=${() => this.answer(c)}>${PERMISSION_LABELS[c]}</button>`)}</div>
      ${scope && p.choices.includes('allow_always') ? html`<div class="scope">Always allow: ${scope}</div>` : nothing}
    </section>`;
  }

  private answer(choice: PermissionChoice): void {
    toHost(this, { type: 'answerPermission', requestId: this.prompt.requestId, choice });
  }
}

customElements.define('acp-permission-prompt', PermissionPromptElement);

declare global {
  interface HTMLElementTagNameMap {
    'acp-permission-prompt': PermissionPromptElement;
  }
}

/** How far the agent says "always" reaches; nothing when its option says no more than our button ("Always allow"). */
function scopeOf(scope: string | undefined): string | undefined {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return scope && words(scope) !== words(PERMISSION_LABELS.allow_always) ? scope : undefined;
}
