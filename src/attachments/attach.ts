/**
 * Adding attachments to a chat (the paperclip's pick is attachPick.ts): files dragged from the Explorer, and
 * content pasted or dropped from outside VS Code, the editor selection. Only
 * workspace files of a trusted workspace are taken; the rest is said, not
 * silently dropped.
 */
import * as vscode from 'vscode';
import { sayRestricted } from '../workspaceTrust';
import { imageTypeByName, MAX_ATTACHMENTS } from '../shared/attachments';
import type { AttachmentLook, DraftAttachments } from './draftAttachments';
import type { AttachmentSource } from './prepareAttachment';
import { baseName, fileLook, relativePath } from './workspaceUris';

/** Files dragged onto the composer (the Explorer, editor tabs): URIs as text. */
export function attachUris(draft: DraftAttachments, uris: readonly string[]): void {
  if (!trustedOrSay()) return;
  const parsed: vscode.Uri[] = [];
  for (const text of uris) {
    try {
      parsed.push(hostUri(vscode.Uri.parse(text, true)));
    } catch {
      // Not a URI: nothing to attach.
    }
  }
  addFiles(draft, parsed);
}

/**
 * The Explorer of a remote window (Remote-SSH, WSL, a container) hands the
 * page `vscode-remote://<authority>/path`; this extension runs on that remote
 * machine, where the same file is `file:///path`.
 */
function hostUri(uri: vscode.Uri): vscode.Uri {
  return uri.scheme === 'vscode-remote' && vscode.env.remoteName !== undefined ? vscode.Uri.file(uri.path) : uri;
}

/** Content with no file behind it (pasted, dropped from outside VS Code). */
export function attachData(draft: DraftAttachments, name: string, base64: string): void {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    void vscode.window.showWarningMessage(
      `"${shortName(name)}" could not be attached: its content did not arrive whole.`,
    );
    return;
  }
  const label = shortName(name) || 'Pasted content';
  addAttachments(draft, [
    { source: { type: 'data', name: label, bytes }, look: { label, icon: imageTypeByName(label) ? 'image' : 'file' } },
  ]);
}

/**
 * ACP: Add Selection to Chat: the primary selection of `editor`, its exact
 * text (unsaved changes included), as a `name:Lx-Ly` chip. Returns whether
 * it was added.
 */
export function attachSelection(draft: DraftAttachments, editor: vscode.TextEditor | undefined): boolean {
  if (!editor) return warn('Open a file of this workspace and select some text first.');
  if (!trustedOrSay()) return false;
  const doc = editor.document;
  if (doc.isUntitled || !vscode.workspace.getWorkspaceFolder(doc.uri)) {
    return warn('Only a selection in a file of this workspace can be added to the chat.');
  }
  const sel = editor.selection;
  if (sel.isEmpty) return warn('Select some text first.');
  // A selection that ends at the start of a line does not take that line.
  const last = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  const startLine = sel.start.line + 1;
  const endLine = last + 1;
  const label = `${baseName(doc.uri)}:L${startLine}-L${endLine}`;
  addAttachments(draft, [
    {
      source: { type: 'selection', uri: doc.uri, label, text: doc.getText(sel), startLine, endLine },
      look: { label, detail: `${relativePath(doc.uri)}:L${startLine}-L${endLine}`, icon: 'selection' },
    },
  ]);
  return true;
}

function warn(text: string): false {
  void vscode.window.showWarningMessage(text);
  return false;
}

/** Adds workspace files; files outside the workspace and folders are said once. */
export function addFiles(draft: DraftAttachments, uris: readonly vscode.Uri[]): void {
  const inside = uris.filter((uri) => vscode.workspace.getWorkspaceFolder(uri) !== undefined);
  if (inside.length < uris.length) {
    const n = uris.length - inside.length;
    void vscode.window.showWarningMessage(
      `${n === 1 ? 'A file' : `${n} files`} outside this workspace ${n === 1 ? 'was' : 'were'} not attached: only files of the workspace can be.`,
    );
  }
  const seen = new Set<string>();
  addAttachments(
    draft,
    inside
      .filter((uri) => !seen.has(uri.toString()) && seen.add(uri.toString()))
      .map((uri) => ({ source: { type: 'file', uri }, look: fileLook(uri) })),
  );
}

/** Adds attachments to the draft; those past MAX_ATTACHMENTS are not added, and that is said once. Their ids, or undefined. */
export function addAttachments(
  draft: DraftAttachments,
  items: ReadonlyArray<{ source: AttachmentSource; look: AttachmentLook }>,
): Array<string | undefined> {
  const added = items.map((item) => draft.add(item.source, item.look));
  const refused = added.filter((id) => id === undefined).length;
  if (refused > 0) {
    void vscode.window.showWarningMessage(
      `At most ${MAX_ATTACHMENTS} attachments go with one prompt: ${refused === 1 ? 'one was' : `${refused} were`} not added.`,
    );
  }
  return added;
}

export function trustedOrSay(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void sayRestricted('Files can be attached only in a trusted workspace: this folder is in Restricted Mode.');
  return false;
}

/** A name from the page: one line, bounded. */
function shortName(name: string): string {
  return name
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[/\\]/g, '_')
    .trim()
    .slice(0, 120);
}
