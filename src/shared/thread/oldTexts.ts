/**
 * An edit the agent asks about with no old text (`oldText` null or absent) reads as a new file: Claude Code's adapter
 * (ACP v1) sends its Write of an existing file that way, and the user approved "New file · +14 −0" without seeing what
 * it replaced. Where the host reads files for the agent, the prompt's diff is made against the file as it is when the
 * agent asks (`oldFrom: 'disk'`); where it cannot be read (the web, Restricted Mode, outside the agent's folders,
 * too large), the diff says the old text is unknown (`oldFrom: 'unknown'`). A file that is not there is a new file.
 */
import type { ToolEntry } from './thread';
import { diffContent, lacksOldText } from './toolCalls';

/** The text a file has now; `null`: there is no such file; `undefined`: it could not be read here. */
export type FileNow = string | null | undefined;

/** Files read for one request, at most: an agent's 200 diffs do not make 200 reads. */
export const MAX_FILES_NOW = 8;

/** The paths of `tool`'s diffs that came without old text. */
export function pathsWithoutOldText(tool: ToolEntry): string[] {
  const paths = new Set<string>();
  for (const c of tool.content) if (lacksOldText(c)) paths.add(c.path);
  return [...paths].slice(0, MAX_FILES_NOW);
}

/** `tool` with each diff without old text made against its file as it is `now` (or said unknown); the same entry when none changes. */
export function withFilesNow(tool: ToolEntry, now: ReadonlyMap<string, FileNow>): ToolEntry {
  let changed = false;
  const content = tool.content.map((c) => {
    if (!lacksOldText(c) || !now.has(c.path)) return c;
    const text = now.get(c.path);
    if (text === null) return c;
    changed = true;
    if (text === undefined) return { ...c, oldFrom: 'unknown' as const };
    return { ...diffContent(c.path, text, c.newText), oldFrom: 'disk' as const };
  });
  return changed ? { ...tool, content } : tool;
}

/** What `read` says of each path, read one after another; a read that throws is `undefined` (unknown). */
export async function filesNow(
  paths: readonly string[],
  read: (path: string) => Promise<FileNow>,
): Promise<Map<string, FileNow>> {
  const now = new Map<string, FileNow>();
  for (const path of paths) {
    try {
      now.set(path, await read(path));
    } catch {
      now.set(path, undefined);
    }
  }
  return now;
}
