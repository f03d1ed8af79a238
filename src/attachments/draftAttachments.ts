/**
 * A chat's attachments before its prompt is sent: each is read as soon as it
 * is added (its chip says "preparing" meanwhile, and then whether it can be
 * sent), kept in order, removable. Sending takes them all (files are read
 * again then: they may have changed); a prompt that cannot be sent puts them
 * back with the reason on each chip that failed.
 */
import { type Disposable, Emitter } from '../shared/events';
import { MAX_ATTACHMENTS, type AttachmentChip, type AttachmentIcon } from '../shared/attachments';
import { errorMessage } from '../errorText';
import type { AttachmentSource } from './prepareAttachment';
import type { PreparedAttachment, PromptAttachment } from './promptBlocks';

/** How an attachment is shown. */
export interface AttachmentLook {
  readonly label: string;
  readonly detail?: string;
  readonly icon: AttachmentIcon;
}

/** One attachment: where it comes from, how it looks, what reading it gave. */
export interface DraftAttachment {
  readonly id: string;
  readonly source: AttachmentSource;
  readonly look: AttachmentLook;
  readonly result: Promise<PreparedAttachment | Error>;
  /** Set when `result` settles. */
  settled?: PreparedAttachment | Error;
  /** A reason given after the fact (the prompt could not be sent with it). */
  refused?: string;
}

let nextId = 0;

export class DraftAttachments implements Disposable {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidRemove = new Emitter<string>();
  /** The user removed an attachment (by its id): it will not go with the prompt. */
  readonly onDidRemove = this._onDidRemove.event;
  private items: DraftAttachment[] = [];

  constructor(
    /** Reads what a source is now (prepareAttachment.ts, with the host's file access), for an agent given `roots`. */
    private readonly prepareSource: (source: AttachmentSource, roots: readonly string[]) => Promise<PreparedAttachment>,
  ) {}

  get chips(): AttachmentChip[] {
    return this.items.map(chipOf);
  }

  get count(): number {
    return this.items.length;
  }

  /** Adds one: its id; refused (undefined) past MAX_ATTACHMENTS. */
  add(source: AttachmentSource, look: AttachmentLook): string | undefined {
    if (this.items.length >= MAX_ATTACHMENTS) return undefined;
    const item: DraftAttachment = { id: `att${++nextId}`, source, look, result: this.read(source, []) };
    void item.result.then((r) => {
      item.settled = r;
      if (this.items.includes(item)) this._onDidChange.fire();
    });
    this.items = [...this.items, item];
    this._onDidChange.fire();
    return item.id;
  }

  remove(id: string): void {
    const before = this.items.length;
    this.items = this.items.filter((i) => i.id !== id);
    if (this.items.length === before) return;
    this._onDidRemove.fire(id);
    this._onDidChange.fire();
  }

  /** Takes every attachment, to send: none is left in the composer. */
  takeAll(): DraftAttachment[] {
    const taken = this.items;
    this.items = [];
    if (taken.length > 0) this._onDidChange.fire();
    return taken;
  }

  /** Puts back attachments of a prompt that was not sent, before any added since; `refused` gives reasons by id. */
  putBack(items: readonly DraftAttachment[], refused: ReadonlyMap<string, string> = new Map()): void {
    if (items.length === 0) return;
    for (const item of items) item.refused = refused.get(item.id);
    this.items = [...items, ...this.items.filter((i) => !items.includes(i))].slice(0, MAX_ATTACHMENTS);
    this._onDidChange.fire();
  }

  /**
   * What `items` are now, to send to an agent given `roots`: waits for those being read; files are
   * read again (they may have changed, or been swapped for a link). Errors by id.
   */
  async prepare(
    items: readonly DraftAttachment[],
    roots: readonly string[],
  ): Promise<{ ok: true; attachments: PromptAttachment[] } | { ok: false; errors: Map<string, string> }> {
    const results = await Promise.all(
      items.map(async (item) => (item.source.type === 'file' ? this.read(item.source, roots) : item.result)),
    );
    const errors = new Map<string, string>();
    const attachments: PromptAttachment[] = [];
    results.forEach((r, i) => {
      const item = items[i];
      if (r instanceof Error) errors.set(item.id, r.message);
      else attachments.push({ id: item.id, prepared: r, shown: { label: item.look.label, icon: item.look.icon } });
    });
    return errors.size > 0 ? { ok: false, errors } : { ok: true, attachments };
  }

  dispose(): void {
    this.items = [];
    this._onDidChange.dispose();
    this._onDidRemove.dispose();
  }

  private read(source: AttachmentSource, roots: readonly string[]): Promise<PreparedAttachment | Error> {
    return this.prepareSource(source, roots).catch((error: unknown) =>
      error instanceof Error ? error : new Error(errorMessage(error)),
    );
  }
}

function chipOf(item: DraftAttachment): AttachmentChip {
  const base = {
    id: item.id,
    label: item.look.label,
    icon: item.look.icon,
    ...(item.look.detail ? { detail: item.look.detail } : {}),
  };
  if (item.refused) return { ...base, state: 'error', message: item.refused };
  const r = item.settled;
  if (r === undefined) return { ...base, state: 'preparing' };
  if (r instanceof Error) return { ...base, state: 'error', message: r.message };
  if (r.kind === 'link') {
    return { ...base, state: 'ready', message: `${r.why}: sent as a link where the agent can open it.` };
  }
  return { ...base, state: 'ready' };
}
