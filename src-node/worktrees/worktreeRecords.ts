/**
 * The chats' worktrees this workspace keeps (issue 49), in its state: each one's folders, the commit it started at
 * and what was applied from it. A worktree stays listed (the Sessions view) until it is discarded, whatever happens
 * to its chat, and a window reload loses none. A record that does not parse (another version's, a damaged state) is
 * left out, not guessed at.
 */
import type * as vscode from 'vscode';
import { z } from 'zod';
import { pathInside } from '../../src/shared/text/pathInside';
import type { WorkPlace } from '../../src/platform';
import type { Chat } from '../../src/chat/chat';
import type { Chats } from '../../src/chats/chats';
import { Emitter } from '../../src/shared/events';

const KEY = 'vscode-acp.worktrees';
/** More than anyone keeps; a state holding more is cut to the newest. */
export const MAX_WORKTREES = 200;

const recordSchema = z.object({
  id: z.string().regex(/^[a-z0-9]{1,32}$/),
  /** The worktree's own top folder. */
  top: z.string().min(1).max(4096),
  /** Where its agent works: `top`, or the workspace folder's place in it. */
  path: z.string().min(1).max(4096),
  /** The workspace folder it copies (fsPath). */
  folder: z.string().min(1).max(4096),
  /** The user's repository (its top folder). */
  repo: z.string().min(1).max(4096),
  /** The commit it was made at. */
  start: z.string().regex(/^[0-9a-f]{40,64}$/),
  branch: z.string().max(256).optional(),
  created: z.number().int().nonnegative(),
  /** The agent its chat was started with. */
  agentId: z.string().max(256).optional(),
  /** Files applied to the user's tree as the agent had them: path to the hash of those bytes (a later Apply goes on from there). */
  applied: z.record(z.string().max(4096), z.string().max(128)).optional(),
  /** When it was last applied. */
  appliedAt: z.number().int().nonnegative().optional(),
  /** The task it was made for (Ask Several Agents): the worktrees of one `id` are compared; `agent` names this one. */
  task: z
    .object({
      id: z.string().regex(/^[a-z0-9]{1,32}$/),
      label: z.string().max(200),
      agent: z.string().max(300),
    })
    .optional(),
});
export type WorktreeRecord = z.infer<typeof recordSchema>;

export class WorktreeRecords {
  private readonly _onDidChange = new Emitter<void>();
  /** A worktree was made, applied or discarded. */
  readonly onDidChange = this._onDidChange.event;

  /** The state's list as last read: the checkpoints ask for it per file they name (NodeCheckpoints.label). */
  private read: WorktreeRecord[] | undefined;

  constructor(private readonly state: vscode.Memento) {}

  /** Every kept worktree, the newest first. */
  all(): WorktreeRecord[] {
    if (this.read) return [...this.read];
    const value: unknown = this.state.get(KEY);
    const list = Array.isArray(value) ? value.slice(0, MAX_WORKTREES) : [];
    this.read = list.flatMap((item) => {
      const parsed = recordSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    return [...this.read];
  }

  get(id: string): WorktreeRecord | undefined {
    return this.all().find((r) => r.id === id);
  }

  /** The worktree `path` is in (its agent's folder or inside it). */
  containing(path: string): WorktreeRecord | undefined {
    return this.all().find((r) => pathInside(path, r.path));
  }

  async put(record: WorktreeRecord): Promise<void> {
    const others = this.all().filter((r) => r.id !== record.id);
    await this.state.update(KEY, [record, ...others].slice(0, MAX_WORKTREES));
    this.read = undefined;
    this._onDidChange.fire();
  }

  async remove(id: string): Promise<void> {
    await this.state.update(
      KEY,
      this.all().filter((r) => r.id !== id),
    );
    this.read = undefined;
    this._onDidChange.fire();
  }
}

/** The open chat that works in the worktree whose agent's folder is `path`. */
export function chatWorkingIn(chats: Pick<Chats, 'all'>, path: string): Chat | undefined {
  return chats.all.find((c) => c.place?.path === path);
}

/** The place a chat in `record`'s worktree works in. */
export function placeOf(record: WorktreeRecord): WorkPlace {
  return {
    path: record.path,
    folder: record.folder,
    label: worktreeLabel(record),
    ...(record.task ? { task: record.task.label } : {}),
  };
}

/** A worktree as the chat and the lists name it: its branch, or the commit it is detached at. */
export function worktreeLabel(record: Pick<WorktreeRecord, 'branch' | 'start'>): string {
  return record.branch ? `branch ${record.branch}` : `detached at ${record.start.slice(0, 7)}`;
}
