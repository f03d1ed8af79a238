/**
 * What a host with checkpoints (the Node host) adds to the chats: each chat's Changes bar, the versions from before
 * as documents (the diffs' left side), and the agent's changes reviewed in editors, hunk by hunk, with comments that
 * go to the agent (src/changes). The Node entry hands changesFeature to activateWith; the web entry does not, so the
 * web bundle has none of it (nor the diff library).
 */
import * as vscode from 'vscode';
import { addAttachments } from './attachments/attach';
import type { DraftAttachments } from './attachments/draftAttachments';
import { ChatChanges } from './changes/chatChanges';
import { CHECKPOINT_SCHEME } from './changes/changeDiffs';
import { CheckpointDocuments } from './review/checkpointDocuments';
import { EditorComments, commentsAttachment } from './review/editorComments';
import { EditorReview, type Bars } from './review/editorReview';
import type { Chats } from './chats/chats';
import type { Checkpoints } from './platform';
import type { ReviewComment } from './shared/saved/reviewComments';
import type { ChatViewProvider } from './views/chatViewProvider';

export interface ChangesFeature {
  /** A chat's Changes bar; `say` puts a notice in its chat. */
  readonly bar: (say: (level: 'info' | 'warning', text: string) => void) => ChatChanges;
  /** The versions from before, as documents. */
  readonly documents: CheckpointDocuments;
  /** Once the chats and their view exist: the documents' provider and the review in editors. */
  start(chats: Chats, view: ChatViewProvider): vscode.Disposable[];
}

export function changesFeature(checkpoints: Checkpoints): ChangesFeature {
  const documents = new CheckpointDocuments(checkpoints);
  return {
    bar: (say) => new ChatChanges(checkpoints, say),
    documents,
    start: (chats, view) => [
      documents,
      vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, documents),
      ...reviewInEditors(chats, view, checkpoints),
    ],
  };
}

/** The agent's changes reviewed in editors, hunk by hunk, with comments that go to the agent. */
function reviewInEditors(chats: Chats, view: ChatViewProvider, checkpoints: Checkpoints): vscode.Disposable[] {
  const bars: Bars = {
    all: () => chats.all.flatMap((c) => (c.changes ? [c.changes] : [])),
    shown: () => chats.shown.changes,
    onDidChange: (listener) => {
      const subscriptions = [chats.onDidChangeChat(listener), chats.onDidChangeList(listener)];
      return new vscode.Disposable(() => subscriptions.forEach((s) => s.dispose()));
    },
  };
  const review = new EditorReview(bars, checkpoints);
  const comments = new EditorComments(bars, review, {
    gather: async (changes, list) => {
      const chat = chats.all.find((c) => c.changes === changes);
      if (!chat) return [];
      const byFile = new Map<string, ReviewComment[]>();
      for (const c of list) byFile.set(c.path, [...(byFile.get(c.path) ?? []), c]);
      const files = [...byFile];
      const added = addAttachments(
        chat.composer.attachments,
        files.map(([path, onFile]) => {
          const { uri, startLine, endLine, label, text } = commentsAttachment(path, onFile);
          return {
            source: { type: 'selection' as const, uri, label, text, startLine, endLine },
            look: {
              label,
              detail: `${vscode.workspace.asRelativePath(uri)}:L${startLine}-L${endLine}`,
              icon: 'comment' as const,
            },
          };
        }),
      );
      sentWithPrompt(
        chat.composer.attachments,
        changes,
        new Map(files.flatMap(([, onFile], i) => (added[i] ? [[added[i], onFile]] : []))),
      );
      chats.show(chat.id);
      await view.reveal();
      if (!chat.draft.trim()) chat.handBackDraft('Please address my review comments on your changes.');
      chat.composer.focus();
      return files.flatMap(([, onFile], i) => (added[i] ? onFile : []));
    },
  });
  return [review, comments];
}

/**
 * The comments of the attachments in the prompt being written (by attachment id in `attached`): sent when that prompt
 * takes them, open again when the user removes one (they did not go). Watched while any of these attachments is in
 * the prompt being written.
 */
function sentWithPrompt(
  draft: DraftAttachments,
  changes: ChatChanges,
  attached: ReadonlyMap<string, readonly ReviewComment[]>,
): void {
  if (attached.size === 0) return;
  const move = (comments: readonly ReviewComment[], to: ReviewComment['state']) => {
    for (const comment of comments) {
      if (changes.comments.all.find((c) => c.id === comment.id)?.state === 'attached') {
        changes.comments.set(comment.id, to);
      }
    }
  };
  const removed = draft.onDidRemove((id) => move(attached.get(id) ?? [], 'open'));
  const changed = draft.onDidChange(() => {
    if (draft.chips.some((chip) => attached.has(chip.id))) return;
    // Gone without being removed: a prompt took them.
    move([...attached.values()].flat(), 'sent');
    removed.dispose();
    changed.dispose();
  });
}
