/**
 * Restricted Mode: where the chat refuses something because the folder is
 * not trusted, it says so with VS Code's own way out, the Workspace Trust
 * editor (where the user trusts the folder, or not).
 */
import * as vscode from 'vscode';

const MANAGE = 'Manage Workspace Trust';

/** Opens VS Code's Workspace Trust editor. */
export function manageWorkspaceTrust(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.trust.manage');
}

/** Says `text` (why something was refused in Restricted Mode) with a button to the Workspace Trust editor. */
export async function sayRestricted(text: string): Promise<void> {
  if ((await vscode.window.showWarningMessage(text, MANAGE)) === MANAGE) await manageWorkspaceTrust();
}
