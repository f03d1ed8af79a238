/**
 * The checkpoints around a chat's turns: a mark before the prompt is sent and one when the turn is over; what changed
 * between them (in the folders the agent was given) is the turn's. The mark a turn ended at is held until the next
 * turn starts: what changed in between (the user's edits, an agent still writing after Stop) is nobody's turn, and the
 * chat says so where it touches the agent's files (every file after a Stop: the agent may have gone on writing).
 */
import * as vscode from 'vscode';
import type { CheckpointMark, Checkpoints } from '../platform';
import type { FileChange, FileVersion } from '../shared/changes';
import { errorMessage } from '../errorText';
import { pathInside } from '../shared/text/pathInside';

/** A turn followed to its end. */
export interface MarkedTurn {
  readonly entryId: string;
  /** What changed while it ran, in the agent's folders. */
  readonly changes: FileChange[];
  /** Files the user saved while it ran: its changes to them may be the user's as much as the agent's. */
  readonly savedByUser: ReadonlySet<string>;
}

/** Files listed by name in the notice of what changed between turns, before "and N more". */
const NAMED = 5;

export class TurnMarks implements vscode.Disposable {
  /** Where the last turn ended, and whether by Stop. */
  private lastEnd: { readonly mark: CheckpointMark; readonly stopped: boolean } | undefined;
  /** Versions the chat itself wrote since (a hunk undone, by path): the user's own doing, not another program's. */
  private readonly ownWrites = new Map<string, string>();

  constructor(
    private readonly checkpoints: Checkpoints,
    private readonly say: (level: 'info' | 'warning', text: string) => void,
  ) {}

  /** The turn being followed, until its changes are recorded. */
  private following: Promise<void> | undefined;

  /** around(), then `record` with what the turn changed; `settled` waits for both. */
  follow(
    run: (ready: Promise<unknown>) => Promise<string>,
    roots: readonly string[],
    agents: () => ReadonlySet<string>,
    stopped: () => boolean,
    record: (turn: MarkedTurn) => Promise<void>,
  ): Promise<void> {
    const followed = this.around(run, roots, agents, stopped).then(async (turn) => {
      if (turn) await record(turn);
    });
    const settled = followed.catch(() => undefined);
    this.following = settled;
    void settled.then(() => this.following === settled && (this.following = undefined));
    return followed;
  }

  /** Resolves once the turn being followed is recorded (at once when none is). */
  get settled(): Promise<void> {
    return this.following ?? Promise.resolve();
  }

  /** A turn is being followed: its changes are not all recorded yet. */
  get busy(): boolean {
    return this.following !== undefined;
  }

  /**
   * Runs a turn between two marks: `run` shows the prompt, sends it once `ready` (the first mark) settles, and
   * resolves with the prompt entry's id when the turn is over. `agents`: the files the agent changed in earlier turns
   * (what changed in them since is said); `stopped`: the turn ended by Stop. Undefined when no mark could be taken.
   */
  async around(
    run: (ready: Promise<unknown>) => Promise<string>,
    roots: readonly string[],
    agents: () => ReadonlySet<string>,
    stopped: () => boolean,
  ): Promise<MarkedTurn | undefined> {
    const ours = (c: FileChange) => roots.some((r) => pathInside(c.path, r));
    const mark = this.checkpoints.mark(true, roots).then(
      (taken) => {
        this.sinceLastTurn(taken, ours, agents());
        if (taken.unseen) {
          this.say(
            'info',
            'Checkpoints are still taking their first look at the workspace: a file the agent changes before it is read is listed as not checkpointed yet, without Undo.',
          );
        }
        return taken;
      },
      (error: unknown) => {
        this.say('warning', `No checkpoint before this turn, so its changes are not listed: ${errorMessage(error)}`);
        return undefined;
      },
    );
    const savedByUser = new Set<string>();
    const saving = vscode.workspace.onDidSaveTextDocument(
      (d) => d.uri.scheme === 'file' && savedByUser.add(d.uri.fsPath),
    );
    let entryId: string;
    try {
      entryId = await run(mark);
    } catch (error) {
      void mark.then((taken) => taken && this.checkpoints.release(taken));
      throw error;
    } finally {
      saving.dispose();
    }
    const taken = await mark;
    if (!taken) return undefined;
    try {
      const end = await this.checkpoints.mark(false, roots);
      this.hold({ mark: end, stopped: stopped() });
      // Only the folders the agent was given are its: a change in another workspace folder is not this turn's.
      return { entryId, changes: this.checkpoints.between(taken, end).filter(ours), savedByUser };
    } catch (error) {
      this.say('warning', `What this turn changed could not be worked out: ${errorMessage(error)}`);
      return undefined;
    } finally {
      this.checkpoints.release(taken);
    }
  }

  /** The chat wrote `version` of `path` (a hunk undone at the user's word): not said as a change between turns. */
  wrote(path: string, version: FileVersion | undefined): void {
    if (version?.hash) this.ownWrites.set(path, version.hash);
  }

  /** A turn's first mark is `taken`: what changed since the last turn ended is said, where it is the agent's files. */
  private sinceLastTurn(taken: CheckpointMark, ours: (c: FileChange) => boolean, agents: ReadonlySet<string>): void {
    const last = this.lastEnd;
    const own = new Map(this.ownWrites);
    this.ownWrites.clear();
    if (!last) return;
    const changed = this.checkpoints
      .between(last.mark, taken)
      .filter((c) => ours(c) && (last.stopped || agents.has(c.path)))
      .filter((c) => !(c.after?.hash !== undefined && own.get(c.path) === c.after.hash))
      .map((c) => this.checkpoints.label(c.path));
    this.hold(undefined);
    if (changed.length === 0) return;
    const more = changed.length > NAMED ? ` and ${changed.length - NAMED} more` : '';
    const files = `${changed.slice(0, NAMED).join(', ')}${more}`;
    this.say(
      'info',
      last.stopped
        ? `Changed since the agent was stopped (by the agent still at work, or by you): ${files}. Not counted as the agent's changes of this turn.`
        : `Changed between the agent's turns (by you or another program): ${files}. Not counted as the agent's changes.`,
    );
  }

  /** Keeps the mark the last turn ended at (releasing the one before). */
  private hold(end: { mark: CheckpointMark; stopped: boolean } | undefined): void {
    if (this.lastEnd) this.checkpoints.release(this.lastEnd.mark);
    this.lastEnd = end;
  }

  dispose(): void {
    this.hold(undefined);
  }
}
