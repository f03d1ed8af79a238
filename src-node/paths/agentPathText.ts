/**
 * An agent's path judged as text, before anything touches the disk (issue 45, finding 7). On Windows merely
 * resolving `\\host\share\x` (fs.realpath, fs.stat) opens an SMB connection to a host the agent chose and can
 * hand it the user's NTLM hash; a device path (`\\.\pipe\x`, `\\?\GLOBALROOT\...`) or a reserved name (`NUL`,
 * `COM1.txt`) reaches a device, not a file; `file.txt:stream` names an alternate data stream. So every place that
 * takes a path from an agent asks here first, and reaches the disk only with the normalised path given back.
 *
 * The path flavour (`path.win32` or `path.posix`) is a parameter, so that Windows semantics are tested on Linux.
 * Everything here is one pass over the text: an agent's path may be of any length.
 */
import type * as nodePath from 'node:path';

/** The path functions the checks use: `path.win32` or `path.posix` (or `path`, this machine's). */
export type PathFlavour = Pick<typeof nodePath.posix, 'sep' | 'isAbsolute' | 'normalize' | 'relative'>;

/** The longest path taken (Windows' own limit, in UTF-16 units); POSIX systems refuse far less. */
export const MAX_PATH_CHARS = 32_767;

/** DOS device names: a file of that name, with any extension, in any folder, is the device (`NUL.txt` too). */
const DEVICE_NAMES = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$)$/i;
/** What Windows does not allow in a name: controls, and the characters of wildcards, redirection and streams. */
const NOT_IN_WINDOWS_NAMES = /[\u0000-\u001f<>"|?*:]/;

/** Why `text` must not reach the disk as an agent's absolute path in `flavour`'s semantics; undefined when it may. */
export function pathShapeProblem(flavour: PathFlavour, text: unknown): string | undefined {
  if (typeof text !== 'string' || text === '') return 'it is empty';
  if (text.length > MAX_PATH_CHARS) return `it is longer than ${MAX_PATH_CHARS} characters`;
  if (text.includes('\0')) return 'it contains a NUL character';
  return isWindows(flavour) ? windowsProblem(text) : posixProblem(flavour, text);
}

function posixProblem(flavour: PathFlavour, text: string): string | undefined {
  if (!flavour.isAbsolute(text)) return 'it is not an absolute path';
  // POSIX leaves a path that starts with exactly two slashes to the system (Cygwin reads a network share).
  if (text.startsWith('//') && text[2] !== '/') return 'it starts with // (a network path on some systems)';
  return undefined;
}

function windowsProblem(text: string): string | undefined {
  const separator = (i: number) => text[i] === '\\' || text[i] === '/';
  if (separator(0) && separator(1)) {
    return (text[2] === '.' || text[2] === '?') && (separator(3) || text.length === 3)
      ? 'it is a Windows device path (\\\\.\\ or \\\\?\\)'
      : 'it is a network (UNC) path';
  }
  if (separator(0) && text[1] === '?' && text[2] === '?' && separator(3)) return 'it is an NT object path (\\??\\)';
  if (!/^[A-Za-z]:/.test(text)) return 'it is not an absolute path with a drive letter';
  if (!separator(2)) return 'it is relative to the current folder of its drive (C:name)';
  const names = text.slice(3).split(/[\\/]/);
  for (const name of names) {
    const problem = windowsNameProblem(name);
    if (problem) return problem;
  }
  return undefined;
}

/** Why Windows would not take `name` (one component of a path) as the file it reads as. */
function windowsNameProblem(name: string): string | undefined {
  if (name.includes(':')) return 'it names an alternate data stream (name:stream)';
  if (NOT_IN_WINDOWS_NAMES.test(name)) return 'it has a character Windows does not allow in names';
  if (name === '.' || name === '..' || name === '') return undefined;
  // Windows drops trailing dots and spaces, so the name is another one than it reads as.
  if (name.endsWith('.') || name.endsWith(' ')) return 'a name in it ends with a dot or a space';
  const stem = name.split('.', 1)[0]!.trimEnd();
  if (DEVICE_NAMES.test(stem)) return `it names the Windows device ${stem.toUpperCase()}`;
  return undefined;
}

/** Why a path of a fine shape is refused: it is not below any of the folders. */
export const OUTSIDE = 'it is outside the workspace folders';

/** The result of checking an agent's path against the folders it may reach. */
export type AgentPath = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly why: string };

/**
 * `text` normalised (`.` and `..` resolved by the text, as Node resolves them before any system call), when its
 * shape is fine and it is one of `folders` or below one, by the text alone; otherwise why not. A symlink inside a
 * folder may still lead out of it: the caller checks the canonical path after this.
 */
export function agentPathInside(flavour: PathFlavour, text: unknown, folders: readonly string[]): AgentPath {
  const problem = pathShapeProblem(flavour, text);
  if (problem) return { ok: false, why: problem };
  const normalised = flavour.normalize(text as string);
  const inside = folders.some((folder) => flavour.isAbsolute(folder) && isBelow(flavour, folder, normalised));
  return inside ? { ok: true, path: normalised } : { ok: false, why: OUTSIDE };
}

/** `child` is `folder` or below it, both absolute (Windows: in any letter case, as its file systems compare). */
export function isBelow(flavour: PathFlavour, folder: string, child: string): boolean {
  const rel = flavour.relative(flavour.normalize(folder), child);
  if (rel === '') return true;
  const first = rel.split(flavour.sep, 1)[0];
  return first !== '..' && !flavour.isAbsolute(rel);
}

function isWindows(flavour: PathFlavour): boolean {
  return flavour.sep === '\\';
}
