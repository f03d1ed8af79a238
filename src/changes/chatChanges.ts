/**
 * What a chat's agent changed in the workspace: the Changes bar (each file
 * since the user last kept it, from its version before the agent's first
 * change to its version after the last one) and each turn's own changes
 * (the checkpoints "Restore files to here" goes back to). Keep forgets a
 * file; Undo and Restore put versions back only while a file is still what
 * the agent left and has no unsaved changes in an editor, so the user's own
 * work is never lost (checkpointRestore.ts does the putting back).
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';
import {
  MAX_LISTED_CHANGES,
  changedBetween,
  sameVersion,
  type ChangedFile,
  type Changes,
  type FileChange,
  type FileVersion,
} from '../shared/changes';
import { errorMessage } from '../errorText';
import { confirmMixed, noCopyText, putBack, refusalText, restorePlan, type PutBack } from './checkpointRestore';
import { CommentList } from './commentList';
import { rebasedBefore, UNDO_WAITS } from './hunkActions';
import { TurnMarks } from './turnMarks';
import { closeChangeDiffs, kindOf, openChangeDiff } from './changeDiffs';
import { TurnRecords } from './turnRecords';
import { keptText, LineCounts } from './lineCounts';
import type { ChangesToSave, SavedChanges } from '../shared/saved/savedSessions';

export class ChatChanges implements vscode.Disposable {
  /** The bar: path -> the change since last kept, in the order first changed. */
  private readonly bar = new Map<string, FileChange>();
  /** Each turn's changes, oldest first. */
  private readonly turns = new TurnRecords();
  private readonly lineCounts = new LineCounts((v) => this.text(v));
  private readonly text = (v: FileVersion | undefined) =>
    keptText(this.checkpoints, v, (e) =>
      this.say('warning', `A copy from before could not be read: ${errorMessage(e)}`),
    );
  private busy = false;
  /** The turn (its `seq`) each file's bar entry began with, where this window saw it begin. */
  private readonly began = new Map<string, number>();
  /**
   * Files of the bar the user saved while a turn that changed them ran, or that changed between turns where that could
   * not be set apart (not text): part of what Undo would put back may be the user's.
   */
  private readonly userSaved = new Set<string>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Counts the changes: the editors' review looks again only when it moved (not at every streamed token). */
  private revisionCount = 0;
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidRecord = new vscode.EventEmitter<void>();
  /** The review comments on the agent's changes (commentList.ts). */
  readonly comments = new CommentList(() => {
    this.fireChange();
    this._onDidRecord.fire();
  });
  /** What is recorded changed (a turn's changes came in, a file was kept, undone or restored): worth saving. */
  readonly onDidRecord = this._onDidRecord.event;

  private readonly marks: TurnMarks;

  constructor(
    private readonly checkpoints: Checkpoints,
    private readonly say: (level: 'info' | 'warning', text: string) => void,
  ) {
    this.marks = new TurnMarks(checkpoints, say);
  }

  /**
   * Runs a turn between two checkpoints (turnMarks.ts): `run` shows the prompt, sends it once `ready` (the first
   * checkpoint) settles, and resolves with the prompt entry's id when the turn is over; what changed in between, in
   * the folders the agent was given (`roots`), is the turn's. `stopped`: the turn ended by Stop.
   */
  follow(
    run: (ready: Promise<unknown>) => Promise<string>,
    roots: readonly string[],
    stopped: () => boolean = () => false,
  ): Promise<void> {
    const agents = () => new Set([...this.bar.keys(), ...this.turns.paths()]);
    return this.marks.follow(run, roots, agents, stopped, (turn) =>
      this.turnEnded(turn.entryId, turn.changes, turn.savedByUser),
    );
  }

  /**
   * Resolves once the turn being followed has its changes recorded (at once when none is): a chat saved when its turn
   * ends waits for it, and is saved once, whole.
   */
  get settled(): Promise<void> {
    return this.marks.settled;
  }

  /** A turn is being followed: its changes are not all recorded yet. */
  get busyFollowing(): boolean {
    return this.marks.busy;
  }

  /**
   * Nothing is put back while a turn is followed: the turn's end would take what Undo wrote for the agent's change
   * (and a later Undo would put the agent's code back). Says so; false then.
   */
  private mayPutBack(): boolean {
    if (!this.busyFollowing) return true;
    this.say('warning', UNDO_WAITS);
    return false;
  }

  /** The turn of prompt `entryId` ended: what it changed joins the bar (a file changed back to how it was leaves it). */
  private async turnEnded(
    entryId: string,
    changes: readonly FileChange[],
    savedByUser: ReadonlySet<string> = new Set(),
  ): Promise<void> {
    const seq = this.turns.add(entryId, changes);
    for (const change of changes) {
      const mixed = savedByUser.has(change.path) || !(await this.rebase(change.path, change.before));
      this.moveTo(change.path, change.after, change.before, seq);
      if (mixed && this.bar.has(change.path)) this.userSaved.add(change.path);
    }
    await this.comments.turnEnded(changes, (c) => this.text(c.after));
    await this.countLines();
    this.fireChange();
    this._onDidRecord.fire();
  }

  /**
   * The bar's entry for `path` ends where the turn found the file (`now`): when it changed outside the agent's turns
   * since the entry's end, that change joins its baseline (hunkActions.ts `rebasedBefore`), so the turn's change is
   * not taken to include it. False where that cannot be worked out (not text, too large): the entry is kept whole.
   */
  private async rebase(path: string, now: FileVersion | undefined): Promise<boolean> {
    const entry = this.bar.get(path);
    if (!entry || !changedBetween(entry.after, now)) return true;
    try {
      const rebased = await rebasedBefore(this.checkpoints, entry, now);
      if (rebased) this.bar.set(path, { path, before: rebased.before, after: now });
      return rebased !== undefined;
    } catch (error) {
      this.say('warning', `A copy could not be kept: ${errorMessage(error)}`);
      return false;
    }
  }

  /** What is saved with the chat. */
  get toSave(): ChangesToSave {
    return {
      bar: [...this.bar.values()],
      turns: this.turns.toSave,
      comments: this.comments.all,
    };
  }

  /** A saved chat's changes, its turns named by their prompts' indexes (`entryIdOf` gives their ids now). */
  async load(saved: SavedChanges, entryIdOf: (index: number) => string): Promise<void> {
    this.bar.clear();
    this.began.clear();
    for (const change of saved.bar) this.bar.set(change.path, change);
    this.comments.load(saved.comments ?? []);
    this.turns.load(saved.turns, entryIdOf);
    await this.countLines();
    this.fireChange();
  }

  get status(): Changes {
    const files = [...this.bar.values()].slice(0, MAX_LISTED_CHANGES).map((c) => this.shown(c));
    return { files, total: this.bar.size, busy: this.busy };
  }

  /** The prompts whose "Restore files to here" would change something: those up to the last turn with changes. */
  get checkpointEntries(): string[] {
    return this.turns.checkpointEntries;
  }

  get revision(): number {
    return this.revisionCount;
  }

  private fireChange(): void {
    this.revisionCount++;
    this._onDidChange.fire();
  }

  /** The bar's entry for `path` (its change since last kept). */
  change(path: string): FileChange | undefined {
    return this.bar.get(path);
  }

  /** The files of the bar, in the order first changed. */
  get paths(): string[] {
    return [...this.bar.keys()];
  }

  /**
   * Part of a file's change was kept or undone (hunkActions.ts): its entry is now from `before` to `after`, and
   * leaves the bar when nothing is left of it. (The turns keep what they changed: a restore over a file undone in
   * part finds it changed since, and leaves it as it is.)
   */
  async replace(
    path: string,
    before: FileVersion | undefined,
    after: FileVersion | undefined,
    /** The version of the file an Undo wrote: the user's doing, not said as another program's at the next turn. */
    wrote?: FileVersion,
  ): Promise<void> {
    if (!this.bar.has(path)) return;
    this.marks.wrote(path, wrote);
    if (sameVersion(before, after)) this.forget(path);
    else this.bar.set(path, { path, before, after });
    await this.countLines();
    this.fireChange();
    this._onDidRecord.fire();
  }

  /** Keep: the file (or every file) leaves the bar as it is now. */
  keep(path?: string): void {
    if (path === undefined) {
      this.bar.clear();
      this.userSaved.clear();
      this.began.clear();
    } else {
      this.forget(path);
    }
    this.fireChange();
    this._onDidRecord.fire();
  }

  /** Undo: puts the file (or every file) back as it was before the agent's change; says what it could not. */
  async undo(path?: string): Promise<void> {
    if (!this.mayPutBack()) return;
    let changes =
      path === undefined
        ? [...this.bar.values()]
        : [this.bar.get(path)].filter((c): c is FileChange => c !== undefined);
    const mixed = changes.filter((c) => this.userSaved.has(c.path));
    if (mixed.length > 0 && !(await confirmMixed(mixed.map((c) => this.checkpoints.label(c.path))))) {
      changes = changes.filter((c) => !this.userSaved.has(c.path));
    }
    await this.run(
      changes.map((c) => ({ path: c.path, now: c.after, back: c.before })),
      'Undo',
      false,
    );
  }

  /**
   * "Restore files to here": every file the turns from prompt `entryId` on changed, back as it was before them; a
   * preview first. False when the user said no to it (or another Undo or restore is under way).
   */
  restoreTo(entryId: string): Promise<boolean> {
    const turns = this.turns.from(entryId);
    if (turns.length === 0) return Promise.resolve(true);
    if (!this.mayPutBack()) return Promise.resolve(false);
    return this.run(restorePlan(turns), 'Restore', true, turns[0].seq);
  }

  /** Opens the diff editor: before the agent's change (or since kept) against now. */
  async open(path: string): Promise<void> {
    const change = this.bar.get(path);
    if (change) await openChangeDiff(this.checkpoints, path, change);
  }

  /** Every hash this chat still needs kept. */
  hashes(into: Set<string>): void {
    const add = (v: FileVersion | undefined) => v?.hash && into.add(v.hash);
    for (const c of this.bar.values()) [c.before, c.after].forEach(add);
    this.turns.versions(add);
  }

  /**
   * Puts `changes` back; false when the user said no to the preview, or another run is under way. `from`: a restore
   * of the turns from this one on.
   */
  private async run(changes: PutBack[], what: 'Undo' | 'Restore', preview: boolean, from?: number): Promise<boolean> {
    if (this.busy) return false;
    if (changes.length === 0) return true;
    this.busy = true;
    this.fireChange();
    try {
      const outcome = await putBack(this.checkpoints, changes, what, preview);
      for (const done of outcome.done) this.wentBack(done, from);
      await closeChangeDiffs(
        this.checkpoints,
        outcome.done.map((d) => d.path),
      );
      if (outcome.refused.length > 0) this.say('warning', refusalText(what, outcome.refused));
      return outcome.cancelled !== true;
    } finally {
      this.busy = false;
      this.fireChange();
      this._onDidRecord.fire();
    }
  }

  /**
   * A file is back at `done.back`: the bar and the turns say so. A restore of the turns from `from` on, back to before
   * the turn its bar entry began with, leaves nothing of that entry (its baseline may hold what changed outside the
   * turns since, which the restore took away too).
   */
  private wentBack(done: PutBack, from?: number): void {
    const began = this.began.get(done.path);
    if (from !== undefined && began !== undefined && began >= from) this.forget(done.path);
    else this.moveTo(done.path, done.back, done.now);
    // The turns that made the change are undone for this file: later restores leave it alone.
    this.turns.putBack(done.path);
  }

  /** The bar's entry for `path` now ends at `now` (starting at `from`, with turn `seq`, when the bar has none). */
  private moveTo(path: string, now: FileVersion | undefined, from: FileVersion | undefined, seq?: number): void {
    const entry = this.bar.get(path);
    const before = entry ? entry.before : from;
    if (sameVersion(before, now)) return this.forget(path);
    this.bar.set(path, { path, before, after: now });
    if (!entry && seq !== undefined) this.began.set(path, seq);
  }

  private forget(path: string): void {
    this.bar.delete(path);
    this.userSaved.delete(path);
    this.began.delete(path);
  }

  private shown(change: FileChange): ChangedFile {
    const counts = this.lineCounts.of(change);
    const missing = change.before?.missing ?? change.after?.missing;
    return {
      path: change.path,
      label: this.checkpoints.label(change.path),
      kind: kindOf(change),
      ...(counts ? { added: counts[0], removed: counts[1] } : {}),
      ...(missing ? { noUndo: noCopyText(missing, 'sentence') } : {}),
      ...(this.userSaved.has(change.path) ? { userSaved: true } : {}),
    };
  }

  /** Line counts for the files the bar lists. */
  private countLines(): Promise<void> {
    return this.lineCounts.count([...this.bar.values()].slice(0, MAX_LISTED_CHANGES));
  }

  dispose(): void {
    this.marks.dispose();
    this._onDidChange.dispose();
    this._onDidRecord.dispose();
  }
}
