/**
 * Where the editor server may look: the session's folders. Every path an agent gives is resolved here before the
 * editor is asked anything; every place the editor answers with is shown through here (a path inside the folders,
 * else marked as outside them, never its text).
 */
import { pathInside } from '../shared/text/pathInside';

export type Resolved = { readonly ok: true; readonly uri: string } | { readonly ok: false; readonly why: string };

export interface EditorScope {
  /** The agent's path (absolute, or relative to the session's first folder) as a uri inside the folders, or why not. */
  resolve(path: string): Promise<Resolved>;
  /** Whether a uri the editor gave is inside the folders. */
  contains(uri: string): boolean;
  /** A uri inside the folders as the agent names it: its path. */
  show(uri: string): string;
}

/** The longest path, query or answer line an agent's arguments may carry. */
export const MAX_ARGUMENT_CHARS = 4_096;
/** At most this many items (problems, symbols, places, files) in one answer; how many more is said. */
export const MAX_RESULTS = 200;
/** An answer's text is cut here (~10k tokens), and says so. */
export const MAX_ANSWER_CHARS = 40_000;
/** One problem's or hover's message is cut here. */
export const MAX_MESSAGE_CHARS = 1_000;

/** `text` within `max` characters, saying it was cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (cut at ${max.toLocaleString('en-US')} characters)` : text;
}

/** The first MAX_RESULTS of `items` as lines, and a last line saying how many were left out. */
export function boundedLines<T>(items: readonly T[], line: (item: T) => string): string {
  const shown = items.slice(0, MAX_RESULTS).map(line);
  if (items.length > MAX_RESULTS) {
    shown.push(
      `(${(items.length - MAX_RESULTS).toLocaleString('en-US')} more not shown: ask for one file, or a narrower query)`,
    );
  }
  return cut(shown.join('\n'), MAX_ANSWER_CHARS);
}

/**
 * The scope of a session's folders (their uris, as VS Code writes them): `check` is the host's judgement of an agent's
 * path as text (its shape, inside a folder) giving its uri; what it gives is held to the folders again.
 */
export function folderScope(folders: readonly string[], check: (path: string) => Promise<Resolved>): EditorScope {
  const roots = folders.map((f) => f.replace(/\/+$/, ''));
  const rootOf = (uri: string) => roots.find((root) => pathInside(uri, root));
  const name = (root: string) => decoded(root.slice(root.lastIndexOf('/') + 1));
  return {
    async resolve(path) {
      if (path.length > MAX_ARGUMENT_CHARS) {
        return { ok: false, why: `it is longer than ${MAX_ARGUMENT_CHARS} characters` };
      }
      const resolved = await check(path);
      return !resolved.ok || rootOf(resolved.uri)
        ? resolved
        : { ok: false, why: 'it is outside the workspace folders' };
    },
    contains: (uri) => rootOf(uri) !== undefined,
    show(uri) {
      const root = rootOf(uri);
      if (!root) return '(outside the workspace folders)';
      const rest = decoded(uri.slice(root.length + 1));
      // In a multi-root workspace a path starts with its folder's name, as VS Code's own relative paths do.
      const shown = roots.length > 1 ? `${name(root)}/${rest}` : rest;
      return shown === '' || shown.endsWith('/') ? shown || '.' : shown;
    },
  };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
