/**
 * The `@` menu of a text box: typing `@` (at the start or after a space)
 * asks the host what the word after it matches (workspace files, folders,
 * open editors, the current file's problems) and lists the answer; choosing
 * one removes the typed `@word` and attaches it (CompletionMenu's keys, the
 * same as the slash commands').
 */
import { html } from 'lit';
import type { MentionItem } from '../../src/shared/page/protocol';
import { ATTACHMENT_ICONS } from '../attachment-chips/attachment-chips';
import { codicon } from '../shared/codicons';
import { CompletionMenu } from '../completion-menu/completion-menu';
import { toHost } from '../shared/to-host';

export class MentionMenu extends CompletionMenu<MentionItem> {
  private requestId = 0;
  /** The query asked of the host last, and where its `@` is in the text. */
  private asked: string | undefined;
  private at = 0;
  private results: readonly MentionItem[] = [];

  /** `owner`: the element the menu is in (it asks the host through it). `remove(from, to)` takes the typed `@word` out of the text box. */
  constructor(
    private readonly owner: { requestUpdate(): void } & EventTarget,
    remove: (from: number, to: number) => void,
  ) {
    super(owner, {
      id: 'mention',
      label: 'Files, folders and problems to attach',
      renderOption: (m) =>
        html`${codicon(ATTACHMENT_ICONS[m.icon] ?? 'file')}<span class="mention-label">${m.label}</span>${m.detail ? html` <span class="mention-detail">${m.detail}</span>` : ''}`,
      tooltip: (m) => (m.detail ? `${m.label} (${m.detail})` : m.label),
      choose: (m) => {
        remove(this.at, this.at + 1 + (this.asked ?? '').length);
        toHost(this.owner, { type: 'attachMention', id: m.id });
        this.asked = undefined;
        this.show(undefined, []);
      },
    });
  }

  /** Call with the text box's value and caret after every edit. */
  textChanged(value: string, caret: number): void {
    const typing = /(^|\s)@([^\s@]{0,200})$/.exec(value.slice(0, caret));
    if (!typing) {
      this.asked = undefined;
      return this.show(undefined, []);
    }
    const query = typing[2];
    this.at = caret - query.length - 1;
    if (query !== this.asked) {
      this.asked = query;
      toHost(this.owner, { type: 'mentionQuery', requestId: ++this.requestId, query });
    }
    // What the last answer listed stays until the answer to this query comes.
    this.show(query, this.results);
  }

  /** The host's answer; an answer to an older query is dropped. */
  answered(requestId: number, items: readonly MentionItem[]): void {
    if (requestId !== this.requestId || this.asked === undefined) return;
    this.results = items;
    this.show(this.asked, items);
  }
}
