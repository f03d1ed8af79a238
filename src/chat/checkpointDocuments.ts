/**
 * The left side of a Changes bar diff: a kept copy from before the agent's
 * change, read-only (`vscode-acp-checkpoint:/<label>?<hash>`; no hash: a file
 * that did not exist, shown empty).
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';

const HASH = /^[0-9a-f]{64}$/;

export class CheckpointDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly checkpoints: Checkpoints) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === '') return '';
    if (!HASH.test(uri.query)) throw new Error('Not a copy this extension keeps.');
    const bytes = await this.checkpoints.copy(uri.query);
    // A binary file would show as noise: say what it is instead.
    if (bytes.includes(0)) return `(a binary file of ${bytes.length} bytes)`;
    return new TextDecoder().decode(bytes);
  }
}
