/**
 * Turns the path an agent sent into the names below the workspace folder, or
 * refuses it. Purely textual: nothing on disk is touched here, so a refusal
 * at this stage cannot have read or written anything.
 *
 * Policy (POSIX paths, UTF-8 on disk):
 * - absolute only; no NUL; no lone UTF-16 surrogates (Node would silently
 *   encode them as U+FFFD and might hit a different, real file);
 * - '..' anywhere is refused outright rather than resolved: resolving it
 *   lexically disagrees with the kernel as soon as a symlink is involved,
 *   and agents have no need for it in an absolute path;
 * - '.' and empty components in the middle ('a/./b', 'a//b') mean nothing
 *   in POSIX and are dropped; a trailing '/' or '/.' names a folder and is
 *   refused (POSIX would also refuse 'file/');
 * - components over 255 bytes and paths over 4095 bytes are refused;
 * - names are compared as UTF-8 bytes, exactly: a file whose name on disk
 *   is not valid UTF-8 cannot be named by an agent at all (U+FFFD in the
 *   request is the bytes EF BF BD, not the file's byte).
 */
import { WorkspaceFsError, quote } from './errors';
import { MAX_NAME_BYTES, MAX_PATH_BYTES } from './limits';
import type { WorkspaceRoot } from './workspaceRoot';

/** The names from the root down to the target (at least one). */
export function namesInside(root: WorkspaceRoot, agentPath: unknown): string[] {
  const text = checkSyntax(agentPath);
  const below = belowRoot(root, components(text));
  if (!below) {
    throw new WorkspaceFsError('outside', `${quote(text)} is outside the workspace folder ${quote(root.path)}.`);
  }
  if (below.length === 0) {
    throw new WorkspaceFsError('not-a-file', `${quote(text)} is the workspace folder itself, not a file.`);
  }
  return below;
}

/** The canonical absolute path of the first `count` names below the root. */
export function pathBelow(root: WorkspaceRoot, names: readonly string[], count = names.length): string {
  return [root.path === '/' ? '' : root.path, ...names.slice(0, count)].join('/');
}

/** The same, quoted for a message. */
export function shownPath(root: WorkspaceRoot, names: readonly string[], count = names.length): string {
  return quote(pathBelow(root, names, count));
}

function checkSyntax(agentPath: unknown): string {
  const invalid = (why: string) => new WorkspaceFsError('invalid-path', why);
  if (typeof agentPath !== 'string' || agentPath === '') throw invalid('The path is empty.');
  if (agentPath.includes('\0')) throw invalid(`${quote(agentPath)} contains a NUL character.`);
  if (/\p{Cs}/u.test(agentPath)) throw invalid(`${quote(agentPath)} is not valid Unicode (it has a lone surrogate).`);
  if (!agentPath.startsWith('/')) throw invalid(`${quote(agentPath)} is relative; paths must be absolute.`);
  if (Buffer.byteLength(agentPath, 'utf8') > MAX_PATH_BYTES) {
    throw invalid(`${quote(agentPath)} is longer than ${MAX_PATH_BYTES} bytes.`);
  }
  return agentPath;
}

function components(text: string): string[] {
  const parts = text.split('/');
  for (const part of parts) {
    if (part === '..') {
      throw new WorkspaceFsError('invalid-path', `${quote(text)} contains '..'; send the path without it.`);
    }
    if (Buffer.byteLength(part, 'utf8') > MAX_NAME_BYTES) {
      throw new WorkspaceFsError('invalid-path', `${quote(text)} has a name longer than ${MAX_NAME_BYTES} bytes.`);
    }
  }
  const last = parts[parts.length - 1];
  if (last === '' || last === '.') {
    throw new WorkspaceFsError('invalid-path', `${quote(text)} ends with '/' and names a folder; name a file.`);
  }
  return parts.filter((p) => p !== '' && p !== '.');
}

/** The names after one of the root's spellings, or undefined when none is a prefix. */
function belowRoot(root: WorkspaceRoot, names: string[]): string[] | undefined {
  for (const prefix of root.prefixes) {
    const rootNames = prefix.split('/').filter((p) => p !== '');
    if (names.length >= rootNames.length && rootNames.every((n, i) => names[i] === n)) {
      return names.slice(rootNames.length);
    }
  }
  return undefined;
}
