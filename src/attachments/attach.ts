/**
 * Adding attachments to a chat: the paperclip's pick (open editors, image
 * previews included, or a file dialog), files dragged from the Explorer, and
 * content pasted or dropped from outside VS Code. Only workspace files of a
 * trusted workspace are taken; the rest is said, not silently dropped.
 */
import * as vscode from 'vscode';
import { imageTypeByName, MAX_ATTACHMENTS } from '../shared/attachments';
import type { DraftAttachments } from './draftAttachments';
import type { AttachmentSource } from './prepareAttachment';

/** The paperclip: a pick of the open workspace files, or Browse. */
export async function pickAttachments(draft: DraftAttachments): Promise<void> {
  if (!trustedOrSay()) return;
  type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
  const browse: Item = { label: '$(folder-opened) Browse…', alwaysShow: true };
  const open: Item[] = openFiles().map((uri) => ({ label: baseName(uri), description: vscode.workspace.asRelativePath(uri, false), uri }));
  const picked = await vscode.window.showQuickPick<Item>([...open, browse], { canPickMany: true, title: 'Attach to the prompt', placeHolder: open.length > 0 ? 'Open files of this workspace, or Browse' : 'Browse for files of this workspace' });
  if (!picked || picked.length === 0) return;
  const uris = picked.flatMap((p) => (p.uri ? [p.uri] : []));
  if (picked.includes(browse)) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    uris.push(...((await vscode.window.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: false, openLabel: 'Attach', ...(folder ? { defaultUri: folder } : {}) })) ?? []));
  }
  addFiles(draft, uris);
}

/** Files dragged onto the composer (the Explorer, editor tabs): URIs as text. */
export function attachUris(draft: DraftAttachments, uris: readonly string[]): void {
  if (!trustedOrSay()) return;
  const parsed: vscode.Uri[] = [];
  for (const text of uris) {
    try {
      parsed.push(vscode.Uri.parse(text, true));
    } catch {
      // Not a URI: nothing to attach.
    }
  }
  addFiles(draft, parsed);
}

/** Content with no file behind it (pasted, dropped from outside VS Code). */
export function attachData(draft: DraftAttachments, name: string, base64: string): void {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    void vscode.window.showWarningMessage(`"${shortName(name)}" could not be attached: its content did not arrive whole.`);
    return;
  }
  const label = shortName(name) || 'Pasted content';
  add(draft, [{ source: { type: 'data', name: label, bytes }, look: { label, icon: imageTypeByName(label) ? 'image' : 'file' } }]);
}

/** Adds workspace files; files outside the workspace and folders are said once. */
export function addFiles(draft: DraftAttachments, uris: readonly vscode.Uri[]): void {
  const inside = uris.filter((uri) => vscode.workspace.getWorkspaceFolder(uri) !== undefined);
  if (inside.length < uris.length) {
    const n = uris.length - inside.length;
    void vscode.window.showWarningMessage(`${n === 1 ? 'A file' : `${n} files`} outside this workspace ${n === 1 ? 'was' : 'were'} not attached: only files of the workspace can be.`);
  }
  const seen = new Set<string>();
  add(draft, inside.filter((uri) => !seen.has(uri.toString()) && seen.add(uri.toString())).map((uri) => ({
    source: { type: 'file', uri },
    look: { label: baseName(uri), detail: vscode.workspace.asRelativePath(uri, false), icon: imageTypeByName(baseName(uri)) ? 'image' : 'file' },
  })));
}

function add(draft: DraftAttachments, items: ReadonlyArray<{ source: AttachmentSource; look: Parameters<DraftAttachments['add']>[1] }>): void {
  let refused = 0;
  for (const item of items) if (!draft.add(item.source, item.look)) refused++;
  if (refused > 0) void vscode.window.showWarningMessage(`At most ${MAX_ATTACHMENTS} attachments go with one prompt: ${refused === 1 ? 'one was' : `${refused} were`} not added.`);
}

function trustedOrSay(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage('Files can be attached only in a trusted workspace.');
  return false;
}

/** The files of the workspace open in editor tabs (text editors, and custom editors such as the image preview). */
function openFiles(): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    const input = tab.input;
    const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
    if (uri && vscode.workspace.getWorkspaceFolder(uri) && !seen.has(uri.toString())) seen.set(uri.toString(), uri);
  }
  return [...seen.values()];
}

function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').filter(Boolean).pop() ?? uri.path;
}

/** A name from the page: one line, bounded. */
function shortName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[/\\]/g, '_').trim().slice(0, 120);
}
