/**
 * `fs/write_text_file`: replaces (or creates) a regular file inside the
 * workspace folder. Only through the descriptor walk: the identity check's
 * leftover race is tolerable for a read, not for a write, so the caller
 * advertises writes only where `descriptorWalkSupported()`.
 *
 * The file is truncated and rewritten in place rather than replaced by a
 * renamed temporary file: that keeps its inode, owner, mode and any
 * editor's watch on it, at the price of not being atomic.
 */
import { namesInside, shownPath } from './agentPath';
import { descriptorWalkSupported } from './walk/descriptorWalk';
import { WorkspaceFsError, fromSystemError } from './errors';
import { openForWriteByWalk } from './walk/fileByWalk';
import { MAX_FILE_BYTES } from './limits';
import type { StepHook } from './walk/walkStep';
import type { WorkspaceRoot } from './workspaceRoot';

export interface WriteOptions {
  /** Tests only: called between the steps of opening the file. */
  readonly onStep?: StepHook;
}

/**
 * Writes `content` (UTF-8) to `agentPath` below `root`, creating the file
 * when missing; its folder must already exist (folders are never created).
 * Throws WorkspaceFsError for anything refused; nothing outside the root is
 * written, and nothing at all when the request is refused.
 */
export async function writeTextFile(
  root: WorkspaceRoot,
  agentPath: string,
  content: string,
  options: WriteOptions = {},
): Promise<void> {
  if (!descriptorWalkSupported()) {
    throw new WorkspaceFsError(
      'unsupported',
      'Writing files is not available on this host (it needs the Linux descriptor walk).',
    );
  }
  const names = namesInside(root, agentPath);
  const shown = shownPath(root, names);
  const size = Buffer.byteLength(content, 'utf8');
  if (size > MAX_FILE_BYTES) {
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    throw new WorkspaceFsError(
      'too-large',
      `The content for ${shown} is ${mib(size)}; at most ${mib(MAX_FILE_BYTES)} is written.`,
    );
  }
  const handle = await openForWriteByWalk(root, names, options.onStep);
  try {
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } catch (e) {
    throw fromSystemError(e, shown);
  } finally {
    await handle.close();
  }
}
