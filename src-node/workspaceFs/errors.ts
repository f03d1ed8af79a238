/**
 * The one error type of the workspace file system. Its message is written to
 * be shown to the user and sent back to the agent as is, so it only ever
 * names paths the agent itself gave (or the workspace folder) and an errno
 * code: never the text of Node's own error, never file contents.
 */

/** Why a request was refused or failed. */
export type WorkspaceFsErrorCode =
  | 'invalid-path' // not an absolute, well-formed path (relative, empty, NUL, '..', too long, ...)
  | 'invalid-range' // `line` / `limit` are not whole numbers >= 0
  | 'outside' // absolute, but not below the workspace folder
  | 'symlink' // a component is a symbolic link: links are never followed
  | 'not-found' // a component does not exist, or a folder component is not a folder
  | 'no-file' // the folder exists, and has no entry by the file's name
  | 'not-a-file' // the target is a folder, FIFO, device or socket
  | 'too-large' // over MAX_FILE_BYTES
  | 'hard-link' // a write to a file with other hard links (it would change elsewhere too)
  | 'changed' // the path changed while it was being opened (a race): nothing was read or written
  | 'denied' // the operating system refused (permissions)
  | 'unsupported' // this host cannot do it safely (writes without the descriptor walk)
  | 'io'; // any other operating system error

/** A refusal or failure; `message` is fit for the user and the agent. */
export class WorkspaceFsError extends Error {
  override readonly name = 'WorkspaceFsError';
  constructor(
    readonly code: WorkspaceFsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** True for a WorkspaceFsError (with that code, when one is given). */
export function isWorkspaceFsError(e: unknown, code?: WorkspaceFsErrorCode): e is WorkspaceFsError {
  return e instanceof WorkspaceFsError && (code === undefined || e.code === code);
}

/**
 * A path quoted for a message: JSON escapes make control characters and
 * invisible tricks visible, and a cut keeps a 4 KB hostile path from flooding
 * the chat.
 */
export function quote(path: string): string {
  const max = 160;
  const cut = path.length > max ? `${path.slice(0, 80)}…${path.slice(-70)}` : path;
  return JSON.stringify(cut);
}

/** "X does not exist." */
export function notFound(shown: string): WorkspaceFsError {
  return new WorkspaceFsError('not-found', `${shown} does not exist.`);
}

/** "X does not exist." of a file whose folder does: the file is new (see NodeWorkspaceFiles.read). */
export function noFile(shown: string): WorkspaceFsError {
  return new WorkspaceFsError('no-file', `${shown} does not exist.`);
}

/**
 * Maps an operating-system error met while handling `shown` (a path already
 * quoted) to a WorkspaceFsError. Anything that already is one passes through.
 */
export function fromSystemError(e: unknown, shown: string): WorkspaceFsError {
  if (e instanceof WorkspaceFsError) return e;
  const errno = (e as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
  switch (errno) {
    case 'ENOENT':
      return notFound(shown);
    case 'ELOOP':
      return new WorkspaceFsError('symlink', `${shown} is a symbolic link; links are not followed.`);
    case 'ENOTDIR':
      return new WorkspaceFsError('not-found', `${shown} does not exist: a folder on its path is a file.`);
    case 'EISDIR':
    case 'ENXIO':
      return new WorkspaceFsError('not-a-file', `${shown} is not a regular file.`);
    case 'EACCES':
    case 'EPERM':
      return new WorkspaceFsError('denied', `Permission denied: ${shown}.`);
    case 'ENAMETOOLONG':
      return new WorkspaceFsError('invalid-path', `${shown} is too long.`);
    case 'EFBIG':
      return new WorkspaceFsError('too-large', `${shown} is too large.`);
    default:
      return new WorkspaceFsError('io', `Could not access ${shown} (${errno}).`);
  }
}
