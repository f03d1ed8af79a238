/**
 * The left side of a Changes bar diff: a kept copy from before the agent's
 * change, read-only (`vscode-acp-checkpoint:/<label>?<key>`, a copy's or Git's; none: a file
 * that did not exist, shown empty); and `?report`: what checkpoints leave out.
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';
import { CHECKPOINT_SCHEME } from '../changes/changeDiffs';
import { VERSION_KEY } from '../shared/changes';

/** ACP: Show What Checkpoints Leave Out. */
export const CHECKPOINT_REPORT_URI = vscode.Uri.from({
  scheme: CHECKPOINT_SCHEME,
  path: '/What checkpoints leave out.txt',
  query: 'report',
});

export class CheckpointDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly checkpoints: Checkpoints) {}

  /** Opens the report of what checkpoints leave out, as it is now. */
  async showReport(): Promise<void> {
    this._onDidChange.fire(CHECKPOINT_REPORT_URI);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(CHECKPOINT_REPORT_URI), {
      preview: true,
    });
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === '') return '';
    if (uri.query === 'report') {
      return `What checkpoints leave out (the Changes bar lists no change to these, or offers no Undo)\n\n${this.checkpoints.report()}\n`;
    }
    if (!VERSION_KEY.test(uri.query)) throw new Error('Not a copy this extension keeps.');
    const bytes = await this.checkpoints.copy(uri.query);
    // A binary file would show as noise: say what it is instead.
    if (bytes.includes(0)) return `(a binary file of ${bytes.length} bytes)`;
    return new TextDecoder().decode(bytes);
  }
}
