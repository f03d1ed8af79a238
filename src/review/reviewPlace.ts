/**
 * Where the review stands for the editors: the context keys the title bar's actions and the keys go by (which files
 * have agent changes, whether the active editor has any, whether its cursor is in one), and the status bar item that
 * says where the cursor is among them ("Agent change 1 of 2"), for keyboard users.
 */
import * as vscode from 'vscode';
import type { Hunk } from '../changes/hunks';
import { contains } from './hunkLenses';

/** Context keys: the files with agent changes; the active editor shows agent changes; its cursor is in one. */
const FILES = 'vscode-acp.review.files';
const HAS_CHANGES = 'vscode-acp.review.hasChanges';
const AT_CHANGE = 'vscode-acp.review.atChange';

export class ReviewPlace implements vscode.Disposable {
  private readonly status = vscode.window.createStatusBarItem('vscode-acp.review', vscode.StatusBarAlignment.Left, 100);

  constructor() {
    this.status.name = 'Agent Changes';
    this.status.command = 'vscode-acp.nextChange';
  }

  /** `files`: paths with agent changes in view; `hunks`: the active editor's; `line`: its cursor's (-1: none). */
  show(files: readonly string[], hunks: readonly Hunk[], line: number): void {
    void vscode.commands.executeCommand('setContext', FILES, files);
    void vscode.commands.executeCommand('setContext', HAS_CHANGES, hunks.length > 0);
    const at = hunks.findIndex((h) => contains(h, line));
    // The context keys first: the status bar says so once they are set (the same channel, in order).
    void vscode.commands.executeCommand('setContext', AT_CHANGE, at >= 0);
    if (hunks.length === 0) return this.status.hide();
    this.status.text =
      at >= 0
        ? `$(diff) Agent change ${at + 1} of ${hunks.length}`
        : `$(diff) ${hunks.length === 1 ? '1 agent change' : `${hunks.length} agent changes`}`;
    this.status.tooltip =
      at >= 0
        ? 'Keep: Ctrl+Shift+Enter · Undo: Ctrl+Shift+Backspace · Next change: Alt+F5'
        : 'Go to the next change (Alt+F5)';
    this.status.show();
  }

  dispose(): void {
    this.status.dispose();
  }
}
