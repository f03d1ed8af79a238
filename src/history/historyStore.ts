/**
 * This workspace's chat history on disk, in VS Code's workspace storage
 * (never outside it): `sessions/index.json` (which sessions, newest first)
 * and `sessions/<key>.json` (each one's local transcript, bounded, see
 * shared/saved/savedSessions.ts). Through vscode.workspace.fs, so on the web host
 * too. Writes go one at a time; a failed write (storage full, say) is logged
 * and reported once, and loses nothing already saved.
 *
 * A file is replaced by writing its next version beside it (`<name>.new`)
 * and renaming that over it. VS Code's rename over a file deletes the file
 * first, then renames: a reader between the two, or a window that dies
 * there, finds the next version beside it, which is whole (see readFile).
 */
import * as vscode from 'vscode';
import {
  isTranscriptFileName,
  MAX_HISTORY_LIMIT,
  parseIndex,
  savedTranscriptSchema,
  sessionKey,
  transcriptToSave,
  upsert,
  type ChangesToSave,
  type HistoryEntry,
  type SavedTranscript,
} from '../shared/saved/savedSessions';
import type { Thread } from '../shared/thread/thread';
import { titleText } from '../shared/text/titleText';
import { setting } from '../settings/settings';

/** A chat's session, as saving needs it. */
export interface SessionToSave {
  readonly agentId: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly title: string | undefined;
  readonly thread: Pick<Thread, 'entries' | 'terminals' | 'title' | 'titleByUser'>;
  /** What the agent changed (the Changes bar and its checkpoints), where the host keeps that. */
  readonly changes?: ChangesToSave;
}

export class HistoryStore implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** The history changed (saved, deleted, pruned). */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidFail = new vscode.EventEmitter<string>();
  /** A read or write failed: what to tell the user. */
  readonly onDidFail = this._onDidFail.event;
  private readonly folder: vscode.Uri | undefined;
  private index: Promise<HistoryEntry[]> | undefined;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    storage: vscode.Uri | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.folder = storage && vscode.Uri.joinPath(storage, 'sessions');
  }

  /** Where the history is kept (VS Code's storage for this workspace); undefined without a folder open. */
  get location(): vscode.Uri | undefined {
    return this.folder;
  }

  /** False without workspace storage (no folder open): nothing is saved. */
  get available(): boolean {
    return this.folder !== undefined;
  }

  /** The saved sessions, newest first. */
  list(): Promise<HistoryEntry[]> {
    this.index ??= this.readIndex();
    return this.index;
  }

  /**
   * Saves (or updates) a chat's session and its transcript; prunes to
   * `vscode-acp.sessions.maxHistory`. `refresh`: only rewrites a chat that is
   * saved already, as it is placed (not a use: its place in the history
   * stays; one pruned or deleted meanwhile stays gone).
   */
  save(
    what: SessionToSave | (() => SessionToSave | undefined),
    refresh: boolean | (() => boolean) = false,
  ): Promise<void> {
    const folder = this.folder;
    if (!folder || !settings().autoSave) return Promise.resolve();
    return this.queue(async () => {
      // Taken now, when the writes before it are done: what is saved is the latest.
      const session = typeof what === 'function' ? what() : what;
      if (!session) return;
      const onlyRefresh = typeof refresh === 'function' ? refresh() : refresh;
      const all = await this.list();
      const known = all.find((s) => sessionKey(s) === sessionKey(session));
      if (onlyRefresh) {
        if (known) {
          await this.write(this.fileOf(known.key), transcriptToSave(session.thread, undefined, session.changes));
        }
        return;
      }
      const now = Date.now();
      const entry: HistoryEntry = {
        key: known?.key ?? newKey(),
        agentId: session.agentId,
        sessionId: session.sessionId,
        cwd: session.cwd,
        title: titleText(session.title ?? '') || known?.title || 'Untitled chat',
        ...(session.thread.titleByUser ? { titleByUser: true } : {}),
        createdAt: known?.createdAt ?? now,
        updatedAt: now,
      };
      await this.write(this.fileOf(entry.key), transcriptToSave(session.thread, undefined, session.changes));
      const { sessions, dropped } = upsert(all, entry, settings().maxHistory);
      await this.writeIndex(sessions);
      for (const old of dropped) await this.deleteFile(old.key);
    });
  }

  /** Resolves once every save asked for so far is written (a window closing waits for it). */
  flushed(): Promise<unknown> {
    return this.writing;
  }

  /** Every copy the saved chats' changes name (kept by the checkpoints' sweep). */
  async changesHashes(into: Set<string>): Promise<void> {
    for (const entry of await this.list()) {
      const saved = await this.transcript(entry);
      if ('error' in saved || !saved.changes) continue;
      for (const change of [...saved.changes.bar, ...saved.changes.turns.flatMap((t) => t.files)]) {
        if (change.before?.hash) into.add(change.before.hash);
        if (change.after?.hash) into.add(change.after.hash);
      }
    }
  }

  /** A saved session's transcript; a message for the user when it cannot be read. */
  async transcript(entry: HistoryEntry): Promise<SavedTranscript | { error: string }> {
    // After the writes queued before: a chat reopened right after its turn ended reads what it saved.
    await this.writing;
    try {
      const bytes = await readFile(this.fileOf(entry.key));
      const parsed = savedTranscriptSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
      if (parsed.success) return parsed.data;
      this.log.warn(
        `The saved transcript of "${entry.title}" does not fit its schema: ${parsed.error.message.slice(0, 500)}`,
      );
      return { error: 'its saved transcript is damaged' };
    } catch (error) {
      this.log.warn(`Could not read the saved transcript of "${entry.title}": ${String(error)}`);
      return { error: 'its saved transcript could not be read' };
    }
  }

  /**
   * Reconciles saved sessions with the agent's own listing: each saved one it
   * lists under another title takes the agent's title unless the user named it (its place in the
   * history, by last use, stays). Nothing is added: a listing of hundreds
   * would push out the chats this workspace had.
   */
  reconcile(agentId: string, listed: ReadonlyArray<{ sessionId: string; title?: string }>): Promise<void> {
    if (!this.folder || !settings().autoSave) return Promise.resolve();
    const titles = new Map(listed.flatMap((l) => (l.title ? [[l.sessionId, titleText(l.title)] as const] : [])));
    return this.queue(async () => {
      const all = await this.list();
      let changed = false;
      const next = all.map((s) => {
        const title = s.agentId === agentId && !s.titleByUser ? titles.get(s.sessionId) : undefined;
        if (!title || title === s.title) return s;
        changed = true;
        return { ...s, title };
      });
      if (changed) await this.writeIndex(next);
    });
  }

  /**
   * The user named a saved session `title` (Rename): its entry takes it, in its place in the history, and the agent's
   * titles no longer replace it (a chat opened from it takes the entry's title). One not saved here is left alone.
   */
  rename(session: { agentId: string; sessionId: string }, title: string): Promise<void> {
    const named = titleText(title);
    if (!this.folder || !named) return Promise.resolve();
    return this.queue(async () => {
      const all = await this.list();
      const known = all.find((s) => sessionKey(s) === sessionKey(session));
      if (!known) return;
      await this.writeIndex(all.map((s) => (s === known ? { ...s, title: named, titleByUser: true } : s)));
    });
  }

  /**
   * A chat that had `before` goes on in session `after` because the agent
   * could not continue `before`: its saved entry, transcript and place in the
   * history become the new session's, so that one chat is one entry, not a
   * ghost under an id the agent no longer knows.
   */
  moved(before: { agentId: string; sessionId: string }, after: { agentId: string; sessionId: string }): Promise<void> {
    if (!this.folder || sessionKey(before) === sessionKey(after)) return Promise.resolve();
    return this.queue(async () => {
      const all = await this.list();
      const old = all.find((s) => sessionKey(s) === sessionKey(before));
      if (!old) return;
      const taken = all.some((s) => sessionKey(s) === sessionKey(after));
      await this.writeIndex(
        taken
          ? all.filter((s) => s !== old)
          : all.map((s) => (s === old ? { ...s, agentId: after.agentId, sessionId: after.sessionId } : s)),
      );
      if (taken) await this.deleteFile(old.key);
    });
  }

  /** Removes a session from this workspace's history (the agent's own copy is not touched). */
  delete(key: string): Promise<void> {
    return this.queue(async () => {
      const all = await this.list();
      if (!all.some((s) => s.key === key)) return;
      await this.writeIndex(all.filter((s) => s.key !== key));
      await this.deleteFile(key);
    });
  }

  dispose(): void {
    this._onDidChange.dispose();
    this._onDidFail.dispose();
  }

  private queue(step: () => Promise<void>): Promise<void> {
    const run = this.writing.then(step).catch((error: unknown) => {
      this.log.error(`Saving the chat history failed: ${String(error)}`);
      this._onDidFail.fire(
        `The chat history could not be saved (${error instanceof Error ? error.message : String(error)}). What was saved before is kept.`,
      );
    });
    this.writing = run;
    return run;
  }

  private async readIndex(): Promise<HistoryEntry[]> {
    if (!this.folder) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(new TextDecoder().decode(await readFile(this.indexFile())));
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return [];
      if (!(error instanceof SyntaxError)) {
        this.log.warn(`Reading ${this.indexFile().toString()} failed: ${String(error)}`);
        this._onDidFail.fire(
          `This workspace's chat history could not be read (${error instanceof Error ? error.message : String(error)}).`,
        );
        return [];
      }
      raw = null;
    }
    const { sessions, unreadable: entries } = parseIndex(raw);
    // An index that is not a list at all says nothing of how many it held: the transcripts beside it do.
    const unreadable = Array.isArray((raw as { sessions?: unknown } | null)?.sessions)
      ? entries
      : await this.countTranscripts();
    if (unreadable > 0) {
      const text = `${unreadable} saved chat session${unreadable === 1 ? '' : 's'} in this workspace's history could not be read and ${unreadable === 1 ? 'is' : 'are'} left out.`;
      this.log.warn(`${text} (${this.indexFile().toString()})`);
      this._onDidFail.fire(text);
    }
    return sessions;
  }

  /** How many saved transcripts the history folder holds (at least one, for an index that was there and is unreadable). */
  private async countTranscripts(): Promise<number> {
    try {
      const files = await vscode.workspace.fs.readDirectory(this.folder!);
      return Math.max(
        1,
        files.filter(([name, type]) => type === vscode.FileType.File && isTranscriptFileName(name)).length,
      );
    } catch {
      return 1;
    }
  }

  private async writeIndex(sessions: HistoryEntry[]): Promise<void> {
    await this.write(this.indexFile(), { version: 1, sessions });
    this.index = Promise.resolve(sessions);
    this._onDidChange.fire();
  }

  /** Writes `uri`'s next version beside it, then renames that over it: a reader (or a crash) never sees half a file. */
  private async write(uri: vscode.Uri, value: unknown): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.folder!);
    await vscode.workspace.fs.writeFile(nextVersion(uri), new TextEncoder().encode(JSON.stringify(value)));
    await vscode.workspace.fs.rename(nextVersion(uri), uri, { overwrite: true });
  }

  private async deleteFile(key: string): Promise<void> {
    for (const uri of [this.fileOf(key), nextVersion(this.fileOf(key))]) {
      try {
        await vscode.workspace.fs.delete(uri, { useTrash: false });
      } catch {
        // Already gone.
      }
    }
  }

  private indexFile(): vscode.Uri {
    return vscode.Uri.joinPath(this.folder!, 'index.json');
  }

  private fileOf(key: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder!, `${key}.json`);
  }
}

/** The user's history settings, read at each save. */
function settings(): { autoSave: boolean; maxHistory: number } {
  return {
    autoSave: setting('sessions.autoSave'),
    maxHistory: Math.min(Math.max(1, setting('sessions.maxHistory')), MAX_HISTORY_LIMIT),
  };
}

function newKey(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return `s${Date.now().toString(36)}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Where `uri`'s next version is written before it replaces `uri`. */
function nextVersion(uri: vscode.Uri): vscode.Uri {
  return uri.with({ path: `${uri.path}.new` });
}

/** `uri`'s bytes; its next version's while a replace has deleted it and not yet renamed that over it. */
async function readFile(uri: vscode.Uri): Promise<Uint8Array> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (error) {
    if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) throw error;
    return vscode.workspace.fs.readFile(nextVersion(uri)).then(
      (bytes) => bytes,
      () => Promise.reject(error),
    );
  }
}
