/**
 * <acp-chat-entry .entry=${Entry}>: one transcript entry. The user's text is
 * shown as typed; the agent's text and thoughts as Markdown (<acp-markdown>,
 * which streams); tool calls and plans by their own elements; notices with
 * their level. The list hands a new entry object only to the entry that
 * changed, so an update here is one entry's worth of work.
 *
 * An older entry is in the page only while its group is near the viewport
 * (see the list's GROUP).
 */
import '../attachment-chips/attachment-chips';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  assertNever,
  type CompactionEntry,
  type Entry,
  type NoticeAction,
  type NoticeLevel,
  type TextEntry,
} from '../../src/shared/thread/thread';
import { textGrowth, type TextGrowth } from '../shared/appended-entries';
import { codicon, type CodiconName } from '../shared/codicons';
import { toHost } from '../shared/to-host';
import '../markdown/markdown';
import '../plan-view/plan-view';
import '../editor-calls/editor-calls';
import '../tool-card/tool-card';
import { chatEntryStyles } from './chat-entry.styles';
import { plainText } from '../shared/text-pieces';

/** Characters of the newest thought line shown beside a collapsed "Thinking". */
const PREVIEW_CHARS = 160;

export class ChatEntry extends LitElement {
  static override properties = {
    entry: { attribute: false },
    restorable: { type: Boolean },
    editable: { type: Boolean },
    last: { type: Boolean },
    thoughtOpen: { state: true },
    editing: { state: true },
  };
  declare entry: Entry;
  /** A user message the host can restore files to (a checkpoint before its turn): shows "Restore files to here". */
  declare restorable: boolean;
  /** A prompt that can be edited and sent again, or branched from (no turn runs): shows Edit and Branch. */
  declare editable: boolean;
  /** The newest prompt: shows Retry too. */
  declare last: boolean;
  /** Edit in place: the prompt's text is in a box. */
  declare private editing: boolean;
  /** UI state, not model state: whether the user expanded this thought. */
  declare thoughtOpen: boolean;
  /** How the text grew since the last render, when it only grew (see appended-entries.ts). */
  private growth: TextGrowth | undefined;

  static override styles = chatEntryStyles;

  constructor() {
    super();
    this.thoughtOpen = false;
    this.restorable = false;
    this.editable = false;
    this.last = false;
    this.editing = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const previous = changed.get('entry') as Entry | undefined;
    if (previous && previous.id !== this.entry.id) this.thoughtOpen = false;
    this.growth = changed.has('entry') ? textGrowth(this.entry, previous) : undefined;
  }

  /** A prompt's actions: Restore files to here (a checkpoint before it), Edit, Retry (the newest), Branch. */
  private actions(e: Extract<Entry, { kind: 'user' }>): TemplateResult | typeof nothing {
    const prompt = e.steered !== true;
    const canEdit = this.editable && prompt && e.fullLength === undefined;
    const icon = (name: CodiconName, label: string, message: Parameters<typeof toHost>[1]) =>
      html`<button aria-label=${label} title=${label} @click=${() => toHost(this, message)}>${codicon(name)}</button>`;
    return html`<span class="actions">${icon('copy', 'Copy', { type: 'copyEntry', entryId: e.id })}${
      this.restorable
        ? html`<button class="restore" title="Put the files the agent changed from this prompt on back as they were before it (shows what first)"
      @click=${() => toHost(this, { type: 'restoreCheckpoint', entryId: e.id })}>${codicon('discard')}<span>Restore files to here</span></button>`
        : nothing
    }${canEdit ? html`<button class="edit" aria-label="Edit and send again" title="Edit and send again" @click=${() => (this.editing = true)}>${codicon('edit')}</button>` : nothing}${
      this.editable && prompt && this.last ? icon('refresh', 'Retry', { type: 'retryPrompt' }) : nothing
    }${this.editable && prompt ? icon('repo-forked', 'Branch from here (a new chat)', { type: 'branch', entryId: e.id }) : nothing}</span>`;
  }

  /** Edit in place: the prompt's text in a box; Enter (or Send) sends it, Escape (or Cancel) leaves it as it was. */
  private editor(e: Extract<Entry, { kind: 'user' }>): TemplateResult {
    const send = () => {
      const text = this.renderRoot.querySelector<HTMLTextAreaElement>('.edit-box')?.value ?? '';
      if (text.trim() === '') return;
      this.editing = false;
      toHost(this, { type: 'resend', entryId: e.id, text });
    };
    const key = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.editing = false;
      } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        send();
      }
    };
    const note = [
      'Sending goes on from here: what follows stays in the history, not in this chat',
      this.restorable ? '; the files the agent changed from this prompt on go back first' : '',
      e.attachments?.length ? '. Its attachments are not sent again' : '',
      '.',
    ].join('');
    return html`<div class="user"><div class="role">You</div>
      <textarea class="edit-box" aria-label="Edit the prompt" .value=${e.text} @keydown=${key}></textarea>
      <div class="edit-note">${note}</div>
      <div class="edit-buttons"><button class="send" @click=${send}>Send</button><button class="cancel" @click=${() => (this.editing = false)}>Cancel</button></div></div>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('editing' as keyof ChatEntry) && this.editing) {
      const box = this.renderRoot.querySelector<HTMLTextAreaElement>('.edit-box');
      box?.focus();
      box?.setSelectionRange(box.value.length, box.value.length);
    }
    // A turn began (or the entry is another): no edit is left open.
    if (
      (changed.has('editable') && !this.editable) ||
      (changed.has('entry') && changed.get('entry')?.id !== this.entry.id)
    ) {
      if (this.editing) this.editing = false;
    }
  }

  override render() {
    const e = this.entry;
    switch (e.kind) {
      case 'user':
        if (this.editing) return this.editor(e);
        return html`<div class="user"><div class="role">You${e.steered ? html`<span class="steered" title="Sent into the agent's running answer (Steer)">${codicon('insert')}into the answer</span>` : nothing}${this.actions(e)}</div>${e.text ? html`<div class="plain">${plainText(e.text)}</div>` : nothing}${cutShort(e)}${e.attachments?.length ? html`<acp-attachment-chips .sent=${e.attachments}></acp-attachment-chips>` : nothing}</div>`;
      case 'assistant':
        return html`<div class="assistant"><div class="role">Agent<span class="actions"><button aria-label="Copy" title="Copy" @click=${() => toHost(this, { type: 'copyEntry', entryId: e.id })}>${codicon('copy')}</button></span></div><acp-markdown .text=${e.text} .growth=${this.growth}></acp-markdown>${cutShort(e)}</div>`;
      case 'thought':
        return this.thought(e);
      case 'tool':
        return html`<acp-tool-card .entry=${e}></acp-tool-card>`;
      case 'plan':
        return html`<acp-plan-view label="Plan" collapsible .entries=${e.entries}></acp-plan-view>`;
      case 'notice':
        return notice(e.id, e.level, e.text, e.action, e.leftOut);
      case 'compaction':
        return this.compaction(e);
      case 'editorCalls':
        return html`<acp-editor-calls .entry=${e}></acp-editor-calls>`;
      default:
        return assertNever(e);
    }
  }

  /**
   * Collapsed by default. While collapsed the Markdown is not rendered at all
   * (nothing to do per chunk but the one-line preview); opening it renders
   * what has arrived, and it streams from there.
   */
  private thought(entry: TextEntry): TemplateResult {
    const text = entry.text;
    return html`<details class="thought" ?open=${this.thoughtOpen} @toggle=${this.onToggle}>
      <summary>
        ${codicon(this.thoughtOpen ? 'chevron-down' : 'chevron-right')}
        <span class="label">Thinking</span>
        <span class="preview" aria-hidden="true">${lastLine(text)}</span>
      </summary>
      ${this.thoughtOpen ? html`<acp-markdown class="thought-text" .text=${text} .growth=${this.growth}></acp-markdown>${cutShort(entry)}` : nothing}
    </details>`;
  }

  /**
   * A boundary: the agent carries on from a summary of what is above it. The
   * summary is collapsed (and not rendered) until opened, as a thought is.
   */
  private compaction(entry: CompactionEntry): TemplateResult {
    const look = compactionLook(entry.status);
    const said = entry.error ? `${look.text}: ${entry.error}` : look.text;
    return html`<div class="compaction ${look.level}">
      <div class="compaction-line">${codicon(look.icon, look.icon === 'loading' ? 'spin' : '')}<span class="plain">${plainText(said)}${leftOutNote(entry.leftOut)}</span></div>
      ${
        entry.summary
          ? html`<details class="compaction-summary" ?open=${this.thoughtOpen} @toggle=${this.onToggle}>
            <summary>${codicon(this.thoughtOpen ? 'chevron-down' : 'chevron-right')}<span class="label">Summary</span></summary>
            ${this.thoughtOpen ? html`<acp-markdown class="thought-text" .text=${entry.summary}></acp-markdown>` : nothing}
          </details>`
          : nothing
      }
    </div>`;
  }

  private onToggle(event: Event): void {
    this.thoughtOpen = (event.currentTarget as HTMLDetailsElement).open;
  }
}

/** How a compaction's status reads (an unknown status is named as the agent sent it). */
function compactionLook(status: string): { icon: CodiconName; text: string; level: NoticeLevel } {
  switch (status) {
    case 'in_progress':
      return { icon: 'loading', text: 'Compacting the context…', level: 'info' };
    case 'completed':
      return {
        icon: 'fold',
        text: 'Context compacted: the agent goes on from a summary of the conversation above',
        level: 'info',
      };
    case 'failed':
      return { icon: 'error', text: 'Compacting the context failed', level: 'error' };
    case 'cancelled':
      return { icon: 'circle-slash', text: 'Compacting the context was cancelled', level: 'info' };
    default:
      return { icon: 'fold', text: `Context compaction: ${status}`, level: 'info' };
  }
}

const noticeLook: Record<NoticeLevel, { icon: TemplateResult; label: string }> = {
  info: { icon: codicon('info'), label: 'Info' },
  warning: { icon: codicon('warning'), label: 'Warning' },
  error: { icon: codicon('error'), label: 'Error' },
};

function notice(
  id: string,
  level: NoticeLevel,
  text: string,
  action: NoticeAction | undefined,
  leftOut: number | undefined,
): TemplateResult {
  const look = noticeLook[level];
  return html`<div class="notice ${level}" role=${level === 'error' ? 'alert' : nothing}>
    ${look.icon}<span class="plain"><span class="sr-only">${look.label}: </span>${plainText(text)}${leftOutNote(leftOut)}</span>
    ${action ? noticeButton(action, id) : nothing}
  </div>`;
}

/** The last of a run of notices and boundaries cut short (entryRuns.ts): how many before it are not shown. */
function leftOutNote(leftOut: number | undefined): TemplateResult | typeof nothing {
  if (!leftOut) return nothing;
  const count = leftOut.toLocaleString('en-US');
  return html`<span class="left-out"> (${count} more ${leftOut === 1 ? 'notice' : 'notices'} in a row before this one, not shown)</span>`;
}

/** What a notice's action button shows, and the message it sends to the host (whose type is the action's name). */
const noticeActions: Record<NoticeAction, { icon: CodiconName; label: string }> = {
  restart: { icon: 'debug-restart', label: 'Restart agent' },
  openEarlier: { icon: 'go-to-file', label: 'Open earlier entries' },
  signIn: { icon: 'account', label: 'Sign in' },
  install: { icon: 'desktop-download', label: 'Install' },
  openSettings: { icon: 'settings-gear', label: 'Open Settings' },
  retry: { icon: 'debug-restart', label: 'Try again' },
  openReplaced: { icon: 'history', label: 'Open the conversation as it was' },
};

function noticeButton(action: NoticeAction, entryId: string): TemplateResult {
  const { icon, label } = noticeActions[action];
  const message = action === 'openReplaced' ? { type: action, entryId } : { type: action };
  return html`<button class="notice-action" @click=${(e: Event) => toHost(e.currentTarget!, message)}>${codicon(icon)}${label}</button>`;
}

/** Under a message the view has only the start of (see SHOWN_TEXT_LIMIT): how much, and a way to the rest. */
function cutShort(entry: TextEntry): TemplateResult | typeof nothing {
  if (entry.fullLength === undefined) return nothing;
  const count = (n: number) => n.toLocaleString('en-US');
  return html`<div class="cut-short">${codicon('info')}<span>Showing the first ${count(entry.text.length)} of ${count(entry.fullLength)} characters.</span>
    <button class="open-whole" @click=${(e: Event) => toHost(e.currentTarget!, { type: 'openEntry', entryId: entry.id })}>${codicon('go-to-file')}Open the whole message in an editor</button></div>`;
}

/** The newest non-blank line, looked for from the end (the text may be long). */
function lastLine(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  const start = text.lastIndexOf('\n', end - 1) + 1;
  const line = text.slice(Math.max(start, end - PREVIEW_CHARS), end);
  // A glimpse, not a rendering: Markdown punctuation would only be noise here.
  return line.replace(/^[#>\-+\s]+|[*_`~]+/g, '');
}

customElements.define('acp-chat-entry', ChatEntry);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-entry': ChatEntry;
  }
}
