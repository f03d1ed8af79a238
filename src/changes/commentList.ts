/**
 * A chat's review comments (shared/saved/reviewComments.ts): written on the agent's lines in an editor
 * (editorComments.ts), gathered into a prompt and sent with it, then marked addressed when a later turn of the agent changes the
 * lines they were on.
 */
import type { FileChange } from '../shared/changes';
import { MAX_REVIEW_COMMENTS, type ReviewComment } from '../shared/saved/reviewComments';

export class CommentList {
  private items: ReviewComment[] = [];
  private next = 1;

  constructor(private readonly changed: () => void) {}

  get all(): readonly ReviewComment[] {
    return this.items;
  }

  /** A new open comment; undefined when the chat has as many as it keeps. */
  add(comment: Omit<ReviewComment, 'id' | 'state'>): ReviewComment | undefined {
    if (this.items.length >= MAX_REVIEW_COMMENTS) return undefined;
    const made: ReviewComment = { ...comment, id: `c${Date.now().toString(36)}-${this.next++}`, state: 'open' };
    this.items.push(made);
    this.changed();
    return made;
  }

  set(id: string, state: ReviewComment['state']): void {
    const at = this.items.findIndex((c) => c.id === id);
    if (at < 0 || this.items[at]!.state === state) return;
    this.items[at] = { ...this.items[at]!, state };
    this.changed();
  }

  remove(id: string): void {
    const before = this.items.length;
    this.items = this.items.filter((c) => c.id !== id);
    if (this.items.length !== before) this.changed();
  }

  /** The comments a saved chat had; one that was in a prompt not sent then is open (that prompt is not kept). */
  load(comments: readonly ReviewComment[]): void {
    this.items = comments.map((c) => (c.state === 'attached' ? { ...c, state: 'open' } : c));
  }

  /**
   * A turn of the agent ended with `changes`: each sent comment on a file it changed whose lines are no longer in
   * the file as they were (`textOf` the file's new version) is addressed.
   */
  async turnEnded(
    changes: readonly FileChange[],
    textOf: (change: FileChange) => Promise<string | undefined>,
  ): Promise<void> {
    let any = false;
    for (const change of changes) {
      const sent = this.items.filter((c) => c.state === 'sent' && c.path === change.path);
      if (sent.length === 0) continue;
      const text = await textOf(change);
      // Not readable as text (too large, binary, no copy): nothing can be said of its lines.
      if (text === undefined) continue;
      const lines = text.split(/\r?\n/);
      for (const comment of sent) {
        if (hasLines(lines, comment.lines.split(/\r?\n/))) continue;
        this.items = this.items.map((c) => (c.id === comment.id ? { ...c, state: 'addressed' } : c));
        any = true;
      }
    }
    if (any) this.changed();
  }
}

/** Whether `wanted` are among `lines` as they were: whole lines, one after the other. */
function hasLines(lines: readonly string[], wanted: readonly string[]): boolean {
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    if (wanted.every((line, j) => lines[i + j] === line)) return true;
  }
  return false;
}
