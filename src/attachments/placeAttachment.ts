/**
 * An attachment of a chat that works in a worktree (issue 49): what the user attached from the workspace folder the
 * worktree copies is named by the worktree's copy, at the same place in it, so that the agent reads and edits its own
 * copy and never the user's file. The text is what the user attached (their version, unsaved edits and all: what they
 * meant to show). Anything from elsewhere is as attached.
 */
import * as vscode from 'vscode';
import type { WorkPlace } from '../platform';
import { pathInside } from '../shared/text/pathInside';
import type { PreparedAttachment } from './promptBlocks';

export function preparedIn(place: WorkPlace | undefined, prepared: PreparedAttachment): PreparedAttachment {
  if (!place || prepared.uri === undefined) return prepared;
  const uri = vscode.Uri.parse(prepared.uri);
  if (uri.scheme !== 'file' || !pathInside(uri.fsPath, place.folder)) return prepared;
  const copy = vscode.Uri.file(place.path + uri.fsPath.slice(place.folder.length)).with({ fragment: uri.fragment });
  return { ...prepared, uri: copy.toString() };
}
