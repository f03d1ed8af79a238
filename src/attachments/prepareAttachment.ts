/**
 * Reads what the user attached, through the host's checks (Node: the
 * descriptor walk), with an open editor's unsaved text in place of the
 * file's; classify.ts decides what it is. Throws an Error whose message goes
 * on the chip.
 */
import * as vscode from 'vscode';
import type { AttachmentFiles, WorkPlace } from '../platform';
import { AttachmentTooLargeError } from '../platform';
import { MAX_EMBEDDED_TEXT_BYTES, sizeText } from '../shared/attachments';
import { classifyData, classifyFile, readCap, type ReadFile } from './classify';
import { baseName, relativePath } from './workspaceUris';
import type { PreparedAttachment } from './promptBlocks';
import { VscodeEditor } from '../editorServer/vscodeEditor';
import { workingTreeChanges, workspaceProblems } from '../editorServer/editorContext';

/** What `@problems` and `@changes` read. */
const editor = new VscodeEditor();

/** What the user attached. */
export type AttachmentSource =
  /** A workspace file: picked, dragged from the Explorer, mentioned. Read again when sent. */
  | { readonly type: 'file'; readonly uri: vscode.Uri }
  /** Content with no file behind it: pasted, or dropped from outside VS Code. */
  | { readonly type: 'data'; readonly name: string; readonly bytes: Uint8Array }
  /** A folder (an `@` mention): a listing of its files. */
  | { readonly type: 'folder'; readonly uri: vscode.Uri }
  /** A file's problems as VS Code knows them when sent (an `@` mention). */
  | { readonly type: 'problems'; readonly uri: vscode.Uri }
  /** The editor's state when sent (`@problems`: the workspace's problems; `@changes`: the working tree's diff). */
  | { readonly type: 'workspaceProblems' | 'changes' }
  /** Text the user selected where no file is behind it (a terminal's). */
  | {
      readonly type: 'text';
      readonly label: string;
      readonly uri: string;
      readonly text: string;
      /** What it is, where it is not plain text (a conversation handed over: Markdown). */
      readonly mimeType?: 'text/markdown';
    }
  /** The editor selection, as it was when added (unsaved changes included). */
  | {
      readonly type: 'selection';
      readonly uri: vscode.Uri;
      readonly label: string;
      readonly text: string;
      readonly startLine: number;
      readonly endLine: number;
    };

/**
 * What a chat reads an attachment with: `roots`, the folders the agent was given; `place`, the worktree it works in
 * (what is attached from the folder it copies is named by the worktree's copy: placeAttachment.ts).
 */
export type PrepareAttachment = (
  source: AttachmentSource,
  roots: readonly string[],
  place?: WorkPlace,
) => Promise<PreparedAttachment>;

/** `roots`: the folders the agent was given (a file in one of them can go as a link); none while it is not known. */
export async function prepareAttachment(
  source: AttachmentSource,
  files: AttachmentFiles,
  roots: readonly string[],
): Promise<PreparedAttachment> {
  switch (source.type) {
    case 'file':
      return classifyFile(await readFile(source.uri, files, roots));
    case 'data':
      return classifyData(source.name, source.bytes);
    case 'folder':
      return folderListing(source.uri);
    case 'problems':
      return {
        kind: 'snippet',
        uri: `${source.uri.toString()}#problems`,
        label: `Problems in ${relativePath(source.uri)}`,
        text: problemsText(source.uri),
      };
    case 'workspaceProblems':
    case 'changes': {
      const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
      const problems = source.type === 'workspaceProblems';
      return {
        kind: 'snippet',
        uri: `${folders[0] ?? 'untitled:workspace'}#${problems ? 'problems' : 'changes'}`,
        label: problems ? 'Problems in the workspace' : 'Changes against HEAD',
        text: await (problems ? workspaceProblems : workingTreeChanges)(editor, folders),
      };
    }
    case 'text':
      return {
        kind: 'snippet',
        uri: source.uri,
        label: source.label,
        text: withinEmbedded(source.text),
        ...(source.mimeType ? { mimeType: source.mimeType } : {}),
      };
    case 'selection': {
      const bytes = new TextEncoder().encode(source.text).length;
      if (bytes > MAX_EMBEDDED_TEXT_BYTES) {
        throw new Error(`The selection is ${sizeText(bytes)}; at most ${sizeText(MAX_EMBEDDED_TEXT_BYTES)} is sent.`);
      }
      return {
        kind: 'snippet',
        uri: `${source.uri.toString()}#L${source.startLine}-L${source.endLine}`,
        label: source.label,
        text: source.text,
      };
    }
  }
}

/** `text` within what one attachment embeds: its start cut, as a terminal's newest lines are its last. */
function withinEmbedded(text: string): string {
  const max = MAX_EMBEDDED_TEXT_BYTES / 2;
  return text.length > max
    ? `(cut short: the last ${max.toLocaleString('en-US')} characters)\n${text.slice(-max)}`
    : text;
}

/** Most files named in a folder's listing. */
const MAX_FOLDER_FILES = 2_000;

async function folderListing(folder: vscode.Uri): Promise<PreparedAttachment> {
  if (!vscode.workspace.isTrusted || !vscode.workspace.getWorkspaceFolder(folder)) {
    throw new Error('Only folders of a trusted workspace can be attached.');
  }
  const files = (
    await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), undefined, MAX_FOLDER_FILES + 1)
  )
    .map(relativePath)
    .sort();
  const more = files.length > MAX_FOLDER_FILES ? `\n(and more: the first ${MAX_FOLDER_FILES} are listed)` : '';
  const text =
    files.length === 0
      ? `${relativePath(folder)}/ has no files.`
      : `The files in ${relativePath(folder)}/:\n${files.slice(0, MAX_FOLDER_FILES).join('\n')}${more}`;
  return { kind: 'snippet', uri: folder.toString(), label: `${relativePath(folder)}/`, text };
}

/** The problems VS Code knows of in `uri`, as text for the agent (bounded). */
export function problemsText(uri: vscode.Uri): string {
  const severity = ['error', 'warning', 'info', 'hint'];
  const lines = vscode.languages
    .getDiagnostics(uri)
    .map(
      (d) =>
        `${relativePath(uri)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${severity[d.severity] ?? 'problem'}: ${d.message.replace(/\s+/g, ' ').slice(0, 2_000)}${d.source ? ` (${d.source})` : ''}`,
    );
  const text = lines.length > 0 ? lines.join('\n') : `No problems in ${relativePath(uri)}.`;
  return text.length > MAX_EMBEDDED_TEXT_BYTES / 2
    ? `${text.slice(0, MAX_EMBEDDED_TEXT_BYTES / 2)}\n(cut short)`
    : text;
}

async function readFile(uri: vscode.Uri, files: AttachmentFiles, roots: readonly string[]): Promise<ReadFile> {
  if (!vscode.workspace.isTrusted) throw new Error('Files can be attached only in a trusted workspace.');
  const name = baseName(uri);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const unsaved = doc?.isDirty ? doc.getText() : undefined;
  const base = {
    uri: uri.toString(),
    name,
    linkable: files.linkable(uri, roots),
    ...(unsaved !== undefined ? { unsaved } : {}),
  };
  try {
    // Read (through the host's checks) even when an editor has unsaved text: that proves where the file is.
    return { ...base, bytes: await files.read(uri, readCap(name)) };
  } catch (error) {
    if (!(error instanceof AttachmentTooLargeError)) throw error;
    return { ...base, bytes: { tooLarge: true, ...(error.size !== undefined ? { size: error.size } : {}) } };
  }
}
