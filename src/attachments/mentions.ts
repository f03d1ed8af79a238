/**
 * The composer's `@` popup, host side: what a query matches (the current
 * file's problems, open editors, workspace files and folders, fuzzy), and
 * turning a chosen one into an attachment with the same rules and limits as
 * any other. Only in a trusted workspace; only its own files.
 */
import * as vscode from 'vscode';
import type { MentionItem } from '../shared/protocol';
import { imageTypeByName } from '../shared/attachments';
import type { AttachmentLook, DraftAttachments } from './draftAttachments';
import type { AttachmentSource } from './prepareAttachment';
import { bestMatches, fuzzyScore } from './fuzzy';
import { baseName, openWorkspaceFiles, relativePath } from './workspaceUris';

/** How many items the popup shows. */
const MAX_ITEMS = 30;
/** How many workspace files are searched (findFiles), and for how long that list is reused. */
const MAX_FILES = 20_000;
const FILES_FRESH_MS = 10_000;

export class Mentions {
  /** What the last results' ids stand for. */
  private offered = new Map<string, { source: AttachmentSource; look: AttachmentLook }>();
  private files: { at: number; uris: Thenable<vscode.Uri[]> } | undefined;
  private next = 0;

  async search(query: string): Promise<MentionItem[]> {
    this.offered.clear();
    if (!vscode.workspace.isTrusted || !vscode.workspace.workspaceFolders?.length) return [];
    const items: MentionItem[] = [];
    const offer = (source: AttachmentSource, look: AttachmentLook, detail?: string) => {
      const id = `m${++this.next}`;
      this.offered.set(id, { source, look });
      items.push({ id, label: look.label, icon: look.icon, ...(detail ? { detail } : {}) });
    };
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && vscode.workspace.getWorkspaceFolder(active) && fuzzyScore(query, 'problems') !== undefined) {
      const count = vscode.languages.getDiagnostics(active).length;
      offer({ type: 'problems', uri: active }, { label: `Problems in ${baseName(active)}`, icon: 'problems' }, `${count} ${count === 1 ? 'problem' : 'problems'}`);
    }
    const uris = await this.workspaceFiles();
    const open = openWorkspaceFiles();
    const openKeys = new Set(open.map((u) => u.toString()));
    for (const uri of bestMatches(query, open, relativePath, 5)) offer({ type: 'file', uri }, fileLook(uri), `${relativePath(uri)} (open)`);
    const folders = [...new Map(uris.map((u) => vscode.Uri.joinPath(u, '..')).filter((f) => vscode.workspace.getWorkspaceFolder(f)?.uri.toString() !== f.toString()).map((f) => [f.toString(), f])).values()];
    const files = bestMatches(query, uris.filter((u) => !openKeys.has(u.toString())), relativePath, MAX_ITEMS - items.length);
    const dirs = bestMatches(query, folders, relativePath, 5);
    for (const uri of files) offer({ type: 'file', uri }, fileLook(uri), relativePath(uri));
    for (const uri of dirs) offer({ type: 'folder', uri }, { label: `${baseName(uri)}/`, detail: relativePath(uri), icon: 'folder' }, `${relativePath(uri)}/`);
    return items.slice(0, MAX_ITEMS);
  }

  /** Attaches what the popup offered as `id`; false when it is no longer offered (another search came since). */
  attach(draft: DraftAttachments, id: string): boolean {
    const chosen = this.offered.get(id);
    if (!chosen) return false;
    if (!draft.add(chosen.source, chosen.look)) void vscode.window.showWarningMessage('At most 10 attachments go with one prompt.');
    return true;
  }

  private workspaceFiles(): Thenable<vscode.Uri[]> {
    if (!this.files || Date.now() - this.files.at > FILES_FRESH_MS) {
      // The files.exclude and search.exclude settings apply (the `undefined` exclude).
      this.files = { at: Date.now(), uris: vscode.workspace.findFiles('**/*', undefined, MAX_FILES) };
    }
    return this.files.uris;
  }
}

function fileLook(uri: vscode.Uri): AttachmentLook {
  return { label: baseName(uri), detail: relativePath(uri), icon: imageTypeByName(baseName(uri)) ? 'image' : 'file' };
}
