/**
 * Keeps a chat's transcript within its bound in memory (transcriptBound.ts),
 * and keeps what leaves: the oldest entries go to Markdown files, one per
 * trim, in the extension's global storage, through vscode.workspace.fs (so
 * on the web host too).
 * They are this window's: deleted when the chat is cleared or the window
 * closes, and leftovers of windows that did not close cleanly are deleted a
 * day later.
 */
import * as vscode from 'vscode';
import { type Disposable } from '../shared/events';
import type { Archive } from '../chat/chatTranscript';
import { emptyThread, type Entry, type Thread } from '../shared/thread/thread';
import { threadToMarkdown } from '../shared/threadMarkdown';
import type { ThreadAction } from '../shared/thread/threadReducer';
import { contentText } from '../shared/thread/messageEntries';
import { splitOldest, type Moved } from '../shared/saved/transcriptBound';

const STALE_MS = 24 * 60 * 60 * 1000;
const NOTHING_MOVED: Moved = { entries: 0, chars: 0 };
/** The transcript's size is checked after this many changes, or this many new characters, whichever comes first. */
const BOUND_CHECK_CHANGES = 64;
const BOUND_CHECK_CHARS = 1024 * 1024;

export class TranscriptArchive implements Archive, Disposable {
  private readonly folder: vscode.Uri | undefined;
  private parts: vscode.Uri[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** What was moved out of memory so far (the notice in the chat counts it). */
  private moved = NOTHING_MOVED;
  private changesSinceCheck = 0;
  private charsSinceCheck = 0;

  constructor(
    private readonly storage: vscode.Uri | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.folder =
      storage &&
      vscode.Uri.joinPath(storage, 'transcripts', `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`);
    void this.deleteStale();
  }

  /**
   * `thread` after `action`, within the bound: past MAX_TRANSCRIPT_CHARS its
   * oldest entries are saved here and replaced by a notice. The size is
   * looked at only now and then (see BOUND_CHECK_*), not after every chunk.
   */
  keepWithinBound(thread: Thread, action: ThreadAction): Thread {
    const update = action.type === 'update' ? action.update : undefined;
    if (update && 'content' in update && update.content && !Array.isArray(update.content)) {
      this.charsSinceCheck += contentText(update.content).length;
    }
    if (++this.changesSinceCheck < BOUND_CHECK_CHANGES && this.charsSinceCheck < BOUND_CHECK_CHARS) return thread;
    this.changesSinceCheck = 0;
    this.charsSinceCheck = 0;
    const split = splitOldest(thread, this.moved);
    if (!split) return thread;
    this.moved = split.moved;
    this.save(split.removed);
    this.log.info(
      `The chat moved its ${split.removed.length} oldest entries out of memory (${split.moved.entries} in all).`,
    );
    return split.thread;
  }

  /** Saves `entries` as the next part (in order with earlier saves). */
  private save(entries: readonly Entry[]): void {
    const folder = this.folder;
    if (!folder) {
      return this.log.warn(
        `No storage for the ${entries.length} oldest chat entries: they were dropped from memory unsaved.`,
      );
    }
    const part = vscode.Uri.joinPath(folder, `earlier-${String(this.parts.length + 1).padStart(3, '0')}.md`);
    this.parts.push(part);
    const text = `# Earlier entries, part ${this.parts.length}\n\n${threadToMarkdown({ ...emptyThread, entries: [...entries] })}`;
    this.writing = this.writing
      .then(async () => {
        await vscode.workspace.fs.createDirectory(folder);
        await vscode.workspace.fs.writeFile(part, new TextEncoder().encode(text));
      })
      .catch((error: unknown) =>
        this.log.error(`Could not save the oldest chat entries to ${part.toString()}: ${String(error)}`),
      );
  }

  /** Opens what was saved: the one part, or a pick of them (newest first). */
  async open(): Promise<void> {
    await this.writing;
    if (this.parts.length === 0) return;
    const pick =
      this.parts.length === 1
        ? this.parts[0]
        : (
            await vscode.window.showQuickPick(
              [...this.parts].reverse().map((uri, i) => ({
                label: `Part ${this.parts.length - i}`,
                description: i === 0 ? 'the newest' : undefined,
                uri,
              })),
              { title: 'Earlier chat entries' },
            )
          )?.uri;
    if (pick) await vscode.window.showTextDocument(pick, { preview: true });
  }

  /** Forgets and deletes what was saved (the chat was cleared). */
  clear(): void {
    this.moved = NOTHING_MOVED;
    const folder = this.folder;
    if (!folder || this.parts.length === 0) return;
    this.parts = [];
    this.writing = this.writing
      .then(() => vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false }))
      .catch((error: unknown) =>
        this.log.warn(`Could not delete the saved chat entries in ${folder.toString()}: ${String(error)}`),
      );
  }

  dispose(): void {
    this.clear();
  }

  private async deleteStale(): Promise<void> {
    if (!this.storage) return;
    const root = vscode.Uri.joinPath(this.storage, 'transcripts');
    try {
      for (const [name] of await vscode.workspace.fs.readDirectory(root)) {
        const born = Number(name.split('-')[0]);
        if (Number.isFinite(born) && Date.now() - born > STALE_MS) {
          await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, name), { recursive: true, useTrash: false });
        }
      }
    } catch {
      // No folder yet.
    }
  }
}
