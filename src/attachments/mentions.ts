/**
 * The composer's `@` popup, host side: what a query matches (the current
 * file's problems, the workspace's, the working tree's changes, open editors, workspace files and folders, fuzzy), and
 * turning a chosen one into an attachment with the same rules and limits as
 * any other. Only in a trusted workspace; only its own files.
 */
import * as vscode from 'vscode';
import type { MentionItem } from '../shared/page/protocol';
import { addAttachments } from './attach';
import type { AttachmentLook, DraftAttachments } from './draftAttachments';
import type { AttachmentSource } from './prepareAttachment';
import { bestMatches, fuzzyScore } from './fuzzy';
import { baseName, fileLook, findWorkspaceFiles, openWorkspaceFiles, relativePath } from './workspaceUris';

/** How many items the popup shows. */
const MAX_ITEMS = 30;
/** For how long the list of workspace files is reused. */
const FILES_FRESH_MS = 10_000;

export class Mentions {
  /** What the last results' ids stand for. */
  private offered = new Map<string, { source: AttachmentSource; look: AttachmentLook }>();
  private files: { at: number; found: Promise<{ files: vscode.Uri[]; folders: vscode.Uri[] }> } | undefined;
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
      offer(
        { type: 'problems', uri: active },
        { label: `Problems in ${baseName(active)}`, icon: 'problems' },
        `${count} ${count === 1 ? 'problem' : 'problems'}`,
      );
    }
    if (fuzzyScore(query, 'problems') !== undefined) {
      const count = vscode.languages
        .getDiagnostics()
        .filter(([uri]) => vscode.workspace.getWorkspaceFolder(uri))
        .reduce((n, [, list]) => n + list.length, 0);
      offer(
        { type: 'workspaceProblems' },
        { label: 'Problems in the workspace', icon: 'problems' },
        `@problems: ${count} ${count === 1 ? 'problem' : 'problems'}`,
      );
    }
    if (fuzzyScore(query, 'changes') !== undefined) {
      offer(
        { type: 'changes' },
        { label: 'Changes against HEAD', icon: 'changes' },
        "@changes: the working tree's diff",
      );
    }
    const { files: uris, folders } = await this.workspaceFiles();
    const open = openWorkspaceFiles();
    const openKeys = new Set(open.map((u) => u.toString()));
    for (const uri of bestMatches(query, open, relativePath, 5)) {
      offer({ type: 'file', uri }, fileLook(uri), `${relativePath(uri)} (open)`);
    }
    const files = bestMatches(
      query,
      uris.filter((u) => !openKeys.has(u.toString())),
      relativePath,
      MAX_ITEMS - items.length,
    );
    const dirs = bestMatches(query, folders, relativePath, 5);
    for (const uri of files) offer({ type: 'file', uri }, fileLook(uri), relativePath(uri));
    for (const uri of dirs) {
      offer(
        { type: 'folder', uri },
        { label: `${baseName(uri)}/`, detail: relativePath(uri), icon: 'folder' },
        `${relativePath(uri)}/`,
      );
    }
    return items.slice(0, MAX_ITEMS);
  }

  /** Attaches what the popup offered as `id`; false when it is no longer offered (another search came since). */
  attach(draft: DraftAttachments, id: string): boolean {
    const chosen = this.offered.get(id);
    if (!chosen) return false;
    addAttachments(draft, [chosen]);
    return true;
  }

  /** The workspace's files and the folders they are in (not the workspace folders themselves), found once per FILES_FRESH_MS. */
  private workspaceFiles(): Promise<{ files: vscode.Uri[]; folders: vscode.Uri[] }> {
    if (!this.files || Date.now() - this.files.at > FILES_FRESH_MS) {
      const found = findWorkspaceFiles().then((files) => {
        const folders = new Map<string, vscode.Uri>();
        for (const file of files) {
          const folder = vscode.Uri.joinPath(file, '..');
          if (vscode.workspace.getWorkspaceFolder(folder)?.uri.toString() !== folder.toString()) {
            folders.set(folder.toString(), folder);
          }
        }
        return { files, folders: [...folders.values()] };
      });
      this.files = { at: Date.now(), found };
    }
    return this.files.found;
  }
}
