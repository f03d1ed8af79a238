/**
 * A file an agent names to the editor server (absolute, or relative to the session's first folder): judged as text
 * (agentPathText.ts), then found on disk as a file whose canonical path is inside the folders too (a link out of them
 * is refused). The path given back is the one the agent wrote, normalised, as VS Code keys its documents.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { agentPathInside, type AgentPath, type PathFlavour } from './agentPathText';
import { findWorkspaceFile, type FileLookup } from './findWorkspaceFile';

export async function agentFileIn(
  text: string,
  roots: readonly string[],
  flavour: PathFlavour & Pick<typeof path.posix, 'join'> = path,
  io: FileLookup = fs,
): Promise<AgentPath> {
  const first = roots[0];
  const absolute = text !== '' && !flavour.isAbsolute(text) && first !== undefined ? flavour.join(first, text) : text;
  const checked = agentPathInside(flavour, absolute, roots);
  if (!checked.ok) return checked;
  if ((await findWorkspaceFile(checked.path, roots, flavour, io)) === undefined) {
    return { ok: false, why: 'it is not a file inside the workspace folders (missing, or a link out of them)' };
  }
  return checked;
}
