/**
 * Where an agent works: its `cwd` and, in a multi-root workspace, the other
 * trusted local folders, given to it as ACP `additionalDirectories` where it
 * advertises `sessionCapabilities.additionalDirectories`. The extension's own
 * handlers (files, terminals, attachment links, the Changes bar) then serve
 * exactly these folders: an agent that does not take more folders works in
 * its `cwd` alone, and the chat says which folders it was not given.
 */
import type * as acp from '@agentclientprotocol/sdk';

export interface WorkRoots {
  /** The folder the agent runs in: the `cwd` of its sessions. */
  readonly cwd: string;
  /** The other folders it was given (`additionalDirectories`), in the workspace's order. */
  readonly additional: readonly string[];
  /** The workspace's other folders it could not be given: it does not take more than one. */
  readonly leftOut: readonly string[];
}

/** Most folders given besides `cwd` (a workspace of hundreds of folders does not become a huge request). */
export const MAX_ADDITIONAL_DIRECTORIES = 64;

/** `cwd` and the workspace's `otherFolders`, as far as the agent (its `initialize` answer) takes them. */
export function workRoots(
  cwd: string,
  otherFolders: readonly string[],
  init: acp.InitializeResponse | undefined,
): WorkRoots {
  const others = [...new Set(otherFolders.filter((folder) => folder !== cwd))];
  const takes = !!init?.agentCapabilities?.sessionCapabilities?.additionalDirectories;
  if (!takes) return { cwd, additional: [], leftOut: others };
  return {
    cwd,
    additional: others.slice(0, MAX_ADDITIONAL_DIRECTORIES),
    leftOut: others.slice(MAX_ADDITIONAL_DIRECTORIES),
  };
}

/** Every folder the agent was given, `cwd` first. */
export function allRoots(roots: WorkRoots): readonly string[] {
  return [roots.cwd, ...roots.additional];
}

/** The fields of `session/new`, `load`, `resume` and `fork` that say where the session works. */
export function rootsParams(roots: WorkRoots): { cwd: string; additionalDirectories?: string[] } {
  return { cwd: roots.cwd, ...(roots.additional.length > 0 ? { additionalDirectories: [...roots.additional] } : {}) };
}

/** What the chat says when the workspace has folders the agent was not given; undefined when there are none. */
export function rootsNotice(roots: WorkRoots): string | undefined {
  if (roots.leftOut.length === 0) return undefined;
  const why =
    roots.additional.length === 0
      ? 'it works in one folder only (it does not take more: ACP additionalDirectories)'
      : `at most ${MAX_ADDITIONAL_DIRECTORIES + 1} folders are given to an agent`;
  const verb = roots.leftOut.length === 1 ? 'is' : 'are';
  return `${names(roots.leftOut)} ${verb} not given to the agent: ${why}. This chat reads, writes and runs commands for it in ${names(allRoots(roots))} only.`;
}

/** Folders by name, at most three and a count. */
function names(folders: readonly string[]): string {
  const named = folders.map(folderName);
  return named.length > 3 ? `${named.slice(0, 3).join(', ')} and ${named.length - 3} more` : named.join(', ');
}

/** A folder's last name, as the Explorer shows a workspace folder. */
function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}
