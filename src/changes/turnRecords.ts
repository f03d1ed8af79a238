/**
 * Each turn's own changes, in order: what "Restore files to here" puts back for the turns from one prompt on. A file
 * put back by Undo or a restore leaves every turn (later restores leave it alone), and turns left with no file go.
 */
import type { FileChange, FileVersion } from '../shared/changes';
import type { ChangesToSave, SavedChanges } from '../shared/saved/savedSessions';

/** One turn's changes, by the id of its prompt entry. */
export interface TurnChanges {
  readonly entryId: string;
  /** Numbers the turns in order (this window's). */
  readonly seq: number;
  readonly files: Map<string, FileChange>;
}

export class TurnRecords {
  private readonly turns: TurnChanges[] = [];
  private count = 0;

  /** The turn of prompt `entryId` changed `changes`; returns its number. */
  add(entryId: string, changes: readonly FileChange[]): number {
    const seq = ++this.count;
    this.turns.push({ entryId, seq, files: new Map(changes.map((c) => [c.path, c])) });
    return seq;
  }

  /** Every path a turn changed. */
  paths(): string[] {
    return this.turns.flatMap((t) => [...t.files.keys()]);
  }

  /** The turns from prompt `entryId` on (none when no turn has that prompt). */
  from(entryId: string): TurnChanges[] {
    const at = this.turns.findIndex((t) => t.entryId === entryId);
    return at < 0 ? [] : this.turns.slice(at);
  }

  /** The prompts whose "Restore files to here" would change something: those up to the last turn with changes. */
  get checkpointEntries(): string[] {
    let last = this.turns.length - 1;
    while (last >= 0 && this.turns[last].files.size === 0) last--;
    return this.turns.slice(0, last + 1).map((t) => t.entryId);
  }

  /** `path` was put back: no turn holds it any more, and turns left with nothing at the end go. */
  putBack(path: string): void {
    for (const turn of this.turns) turn.files.delete(path);
    while (this.turns.length > 0 && this.turns[this.turns.length - 1].files.size === 0) this.turns.pop();
  }

  versions(add: (v: FileVersion | undefined) => void): void {
    for (const t of this.turns) for (const c of t.files.values()) [c.before, c.after].forEach(add);
  }

  get toSave(): ChangesToSave['turns'] {
    return this.turns.map((t) => ({ entryId: t.entryId, files: [...t.files.values()] }));
  }

  /** A saved chat's turns, named by their prompts' indexes (`entryIdOf` gives their ids now), in place of these. */
  load(saved: SavedChanges['turns'], entryIdOf: (index: number) => string): void {
    this.turns.length = 0;
    for (const turn of saved) this.add(entryIdOf(turn.entry), turn.files);
  }
}
