/**
 * Comments on the agent's change, as on a pull request (issue 32): in the editor of a file in a chat's Changes bar,
 * any line of the agent's change takes a comment (VS Code's comments UI). **Send Comments to the Agent** puts the
 * open ones into the chat's next prompt, each with its file and lines (attachments/prepareAttachment.ts): a comment
 * says it is in that prompt and not sent yet until the prompt is sent, then whether the agent addressed it (it changed
 * those lines since, commentList.ts), and can be resolved.
 * The comments are the chat's, saved with it.
 */
import * as vscode from 'vscode';
import type { ReviewComment } from '../shared/saved/reviewComments';
import type { ChatChanges } from '../changes/chatChanges';
import { revisionOf, type Bars } from './editorReview';

const STATE_LABELS: Record<ReviewComment['state'], string> = {
  open: 'Not sent yet',
  attached: 'In your next prompt to the agent: not sent yet',
  sent: 'Sent to the agent',
  addressed: 'Addressed: the agent changed these lines since',
  resolved: 'Resolved',
};

/**
 * The comments on one file, as one attachment of a prompt: anchored to the lines they span (a link or embedded text,
 * by what the agent takes), each with its lines as they were when it was written.
 */
export function commentsAttachment(
  path: string,
  comments: readonly ReviewComment[],
): { uri: vscode.Uri; startLine: number; endLine: number; label: string; text: string } {
  const uri = vscode.Uri.file(path);
  const startLine = Math.min(...comments.map((c) => c.startLine)) + 1;
  const endLine = Math.max(...comments.map((c) => c.endLine)) + 1;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const label = `${comments.length === 1 ? 'Comment' : `${comments.length} comments`} on ${name}`;
  const text = [
    `Review comments on ${vscode.workspace.asRelativePath(uri)} (each with the lines of your change it is on, as they were then):`,
    ...comments.map((c) => {
      const quoted = c.lines
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
      return `Lines ${c.startLine + 1}-${c.endLine + 1}: ${c.text}\n${quoted}`;
    }),
  ].join('\n\n');
  return { uri, startLine, endLine, label, text };
}

export interface CommentSink {
  /** Puts `comments` of the chat whose bar is `changes` into its next prompt: those that went in (the rest did not fit). */
  gather(changes: ChatChanges, comments: readonly ReviewComment[]): Promise<readonly ReviewComment[]>;
}

export class EditorComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController('vscode-acp.review', 'Agent Review');
  /** Each comment's thread, by the comment's id. */
  private readonly threads = new Map<string, vscode.CommentThread>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private signature = '';
  /** The thread of a comment being added. */
  private adopting: vscode.CommentThread | undefined;

  constructor(
    private readonly bars: Bars,
    /** The lines of the agent's change in `document` (where comments may go), and when they change. */
    ranges: { commentRanges(document: vscode.TextDocument): vscode.Range[]; readonly onDidRefresh: vscode.Event<void> },
    private readonly sink: CommentSink,
  ) {
    // Set again whenever the ranges change: that is how VS Code is told to ask again.
    const provide = () =>
      (this.controller.commentingRangeProvider = {
        provideCommentingRanges: (document) => ranges.commentRanges(document),
      });
    provide();
    this.subscriptions.push(ranges.onDidRefresh(provide));
    this.controller.options = {
      prompt: "Comment on the agent's change",
      placeHolder: 'What should the agent do here?',
    };
    this.subscriptions.push(
      this.controller,
      bars.onDidChange(() => this.sync()),
      vscode.commands.registerCommand('vscode-acp.review.addComment', (reply: vscode.CommentReply) => this.add(reply)),
      vscode.commands.registerCommand('vscode-acp.review.resolveComment', (thread: vscode.CommentThread) =>
        this.setState(thread, 'resolved'),
      ),
      vscode.commands.registerCommand('vscode-acp.review.reopenComment', (thread: vscode.CommentThread) =>
        this.setState(thread, 'open'),
      ),
      vscode.commands.registerCommand('vscode-acp.review.deleteComment', (thread: vscode.CommentThread) =>
        this.remove(thread),
      ),
      vscode.commands.registerCommand('vscode-acp.sendComments', () => this.send()),
    );
    this.sync();
  }

  /** A comment written in a new thread: the chat whose bar has the file keeps it. */
  private add(reply: vscode.CommentReply): void {
    const { thread, text } = reply;
    const path = thread.uri.fsPath;
    const changes = this.bars.all().find((c) => c.change(path));
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === thread.uri.toString());
    const range = thread.range;
    if (!changes || !document || !range || !text.trim()) {
      thread.dispose();
      if (!changes) {
        void vscode.window.showWarningMessage('Comments go on lines the agent changed (a file in the Changes bar).');
      } else if (text.trim()) {
        void vscode.window.showWarningMessage('The comment was not added: its file is not open in an editor.');
      }
      return;
    }
    const startLine = range.start.line;
    const endLine = Math.min(range.end.line, document.lineCount - 1);
    const lines = document.getText(new vscode.Range(startLine, 0, endLine, document.lineAt(endLine).text.length));
    // The thread VS Code made for it is the comment's (sync() runs as the comment is added: it takes this one).
    this.adopting = thread;
    const comment = changes.comments.add({ path, startLine, endLine, lines, text: text.trim() });
    this.adopting = undefined;
    if (!comment) {
      thread.dispose();
      void vscode.window.showWarningMessage(
        'This chat has as many review comments as it keeps: resolve or delete some.',
      );
      return;
    }
    this.threads.set(comment.id, thread);
    this.show(thread, comment);
  }

  /** Send Comments to the Agent: the open comments of the chat shown (or of any chat), into its next prompt. */
  private async send(): Promise<void> {
    const shown = this.bars.shown();
    const withOpen = (c: ChatChanges | undefined) => (c ? c.comments.all.filter((m) => m.state === 'open') : []);
    const changes = withOpen(shown).length > 0 ? shown : this.bars.all().find((c) => withOpen(c).length > 0);
    const open = withOpen(changes);
    if (!changes || open.length === 0) {
      void vscode.window.showInformationMessage(
        'No open review comments to send: write one on a line the agent changed.',
      );
      return;
    }
    // In the prompt being written (sent once that prompt is); one that did not fit stays open, to send with the next.
    for (const comment of await this.sink.gather(changes, open)) changes.comments.set(comment.id, 'attached');
  }

  private setState(thread: vscode.CommentThread, state: ReviewComment['state']): void {
    const found = this.find(thread);
    found?.changes.comments.set(found.comment.id, state);
  }

  private remove(thread: vscode.CommentThread): void {
    const found = this.find(thread);
    if (found) found.changes.comments.remove(found.comment.id);
    else thread.dispose();
  }

  private find(thread: vscode.CommentThread): { changes: ChatChanges; comment: ReviewComment } | undefined {
    const id = [...this.threads].find(([, t]) => t === thread)?.[0];
    for (const changes of this.bars.all()) {
      const comment = changes.comments.all.find((c) => c.id === id);
      if (comment) return { changes, comment };
    }
    return undefined;
  }

  /** Every chat's comments as threads: new ones made, changed ones shown anew, gone ones disposed. */
  private sync(): void {
    // Not at every streamed token: only when a chat's changes or comments moved.
    const signature = revisionOf(this.bars);
    if (signature === this.signature) return;
    this.signature = signature;
    const seen = new Set<string>();
    for (const changes of this.bars.all()) {
      for (const comment of changes.comments.all) {
        seen.add(comment.id);
        let thread = this.threads.get(comment.id);
        if (!thread && this.adopting?.uri.fsPath === comment.path) {
          thread = this.adopting;
          this.threads.set(comment.id, thread);
        }
        if (!thread) {
          const uri = vscode.Uri.file(comment.path);
          thread = this.controller.createCommentThread(
            uri,
            new vscode.Range(comment.startLine, 0, comment.endLine, 0),
            [],
          );
          this.threads.set(comment.id, thread);
        }
        this.show(thread, comment);
      }
    }
    for (const [id, thread] of this.threads) {
      if (seen.has(id)) continue;
      thread.dispose();
      this.threads.delete(id);
    }
  }

  private show(thread: vscode.CommentThread, comment: ReviewComment): void {
    const label = STATE_LABELS[comment.state];
    if (thread.label === label && thread.comments.length === 1) return;
    thread.comments = [
      {
        body: comment.text,
        mode: vscode.CommentMode.Preview,
        author: { name: 'You' },
        contextValue: comment.state,
      },
    ];
    thread.label = label;
    thread.contextValue = comment.state;
    thread.canReply = false;
    thread.state =
      comment.state === 'resolved' ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.collapsibleState =
      comment.state === 'resolved'
        ? vscode.CommentThreadCollapsibleState.Collapsed
        : vscode.CommentThreadCollapsibleState.Expanded;
  }

  dispose(): void {
    for (const thread of this.threads.values()) thread.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
