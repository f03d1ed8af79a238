/**
 * `fs/read_text_file`: a regular file inside the workspace folder, at most
 * MAX_FILE_BYTES, decoded as UTF-8, optionally cut to some lines. Also the
 * bytes of a file the user attached to a prompt, through the same walk.
 */
import type { FileHandle } from 'node:fs/promises';
import { namesInside, shownPath } from './agentPath';
import { descriptorWalkSupported } from './walk/descriptorWalk';
import { WorkspaceFsError, fromSystemError } from './errors';
import { openForReadByWalk } from './walk/fileByWalk';
import { openForReadByIdentity } from './walk/identityOpen';
import { selectLines } from './lines';
import { MAX_FILE_BYTES } from './limits';
import type { StepHook } from './walk/walkStep';
import type { WorkspaceRoot } from './workspaceRoot';

export interface ReadOptions {
  /** First line to return, 1-based (0 counts as 1). */
  readonly line?: number | null;
  /** Most lines to return (0: none). Absent: to the end of the file. */
  readonly limit?: number | null;
  /** Tests only: called between the steps of opening the file. */
  readonly onStep?: StepHook;
  /**
   * Tests only: which opener to use. Default: the descriptor walk where
   * `descriptorWalkSupported()`, the identity check elsewhere.
   */
  readonly strategy?: 'walk' | 'identity';
}

/**
 * Reads `agentPath` (an absolute path from an agent) below `root`. Throws
 * WorkspaceFsError for anything refused; nothing outside the root is read.
 */
export async function readTextFile(root: WorkspaceRoot, agentPath: string, options: ReadOptions = {}): Promise<string> {
  const line = wholeNumber(options.line, 'line');
  const limit = wholeNumber(options.limit, 'limit');
  const names = namesInside(root, agentPath);
  const handle = await openForRead(root, names, options);
  const shown = shownPath(root, names);
  try {
    return selectLines(await readAtMost(handle, shown, MAX_FILE_BYTES), line, limit);
  } catch (e) {
    throw fromSystemError(e, shown);
  } finally {
    await handle.close();
  }
}

/**
 * The bytes of `path` (absolute) below `root`, at most `maxBytes`: the same
 * checks as readTextFile. Throws WorkspaceFsError ('too-large' over the cap).
 */
export async function readFileBytes(
  root: WorkspaceRoot,
  path: string,
  maxBytes: number,
  options: Pick<ReadOptions, 'onStep' | 'strategy'> = {},
): Promise<Uint8Array> {
  const names = namesInside(root, path);
  const handle = await openForRead(root, names, options);
  const shown = shownPath(root, names);
  try {
    return await readAtMost(handle, shown, Math.min(maxBytes, MAX_FILE_BYTES));
  } catch (e) {
    throw fromSystemError(e, shown);
  } finally {
    await handle.close();
  }
}

function openForRead(
  root: WorkspaceRoot,
  names: readonly string[],
  options: Pick<ReadOptions, 'onStep' | 'strategy'>,
): Promise<FileHandle> {
  const strategy = options.strategy ?? (descriptorWalkSupported() ? 'walk' : 'identity');
  if (strategy === 'identity') return openForReadByIdentity(root, names, options.onStep);
  if (!descriptorWalkSupported()) {
    throw new WorkspaceFsError('unsupported', 'The descriptor walk is not available on this host.');
  }
  return openForReadByWalk(root, names, options.onStep);
}

function wholeNumber(value: number | null | undefined, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (Number.isSafeInteger(value) && value >= 0) return value;
  throw new WorkspaceFsError(
    'invalid-range',
    `\`${name}\` must be a whole number of 0 or more, not ${JSON.stringify(value)}.`,
  );
}

/**
 * The whole file, refused when over the cap. The size is checked first (a
 * sparse 1 TB file costs nothing to refuse) and again while reading, since
 * the file can grow in between (or say 0, as /proc files do). Exported for its test.
 */
export async function readAtMost(
  handle: Pick<FileHandle, 'stat' | 'read'>,
  shown: string,
  max: number,
): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > max) throw tooLarge(shown, max, size);
  let buffer = Buffer.allocUnsafe(size + 1);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, max + 1 - buffer.length))]);
    }
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) return buffer.subarray(0, total);
    total += bytesRead;
    if (total > max) throw tooLarge(shown, max);
  }
}

/** `size` when known; a file that grew past the cap while being read has none. */
function tooLarge(shown: string, max: number, size?: number): WorkspaceFsError {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const is = size === undefined ? 'grew' : `is ${mib(size)}`;
  return new WorkspaceFsError('too-large', `${shown} ${is}; files over ${mib(max)} are not read.`);
}
