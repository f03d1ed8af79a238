/**
 * "Fix with the agent", a Quick Fix on any problem VS Code shows (whatever language reported it): the problem, its
 * place and its file go to the shown chat as a prompt the user reads and edits before sending (nothing is sent by
 * itself). Offered in a trusted workspace, for files of its folders.
 */
import * as vscode from 'vscode';
import { relativePath } from '../attachments/workspaceUris';

export const FIX_COMMAND = 'vscode-acp.fixWithAgent';
/** The problems one Quick Fix puts into a prompt, at most. */
const MAX_PROBLEMS = 10;
const SEVERITY = ['error', 'warning', 'info', 'hint'];

export class FixWithAgent implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    if (context.diagnostics.length === 0 || !vscode.workspace.isTrusted) return [];
    if (!vscode.workspace.getWorkspaceFolder(document.uri)) return [];
    const action = new vscode.CodeAction('Fix with the agent', vscode.CodeActionKind.QuickFix);
    action.command = {
      command: FIX_COMMAND,
      title: 'Fix with the agent',
      arguments: [document.uri, context.diagnostics.slice(0, MAX_PROBLEMS)],
    };
    return [action];
  }
}

/** The prompt that asks to fix `problems` of `uri`: each with its place (1-based), severity, code and source. */
export function fixPrompt(uri: vscode.Uri, problems: readonly vscode.Diagnostic[]): string {
  const line = (d: vscode.Diagnostic) => {
    const code = typeof d.code === 'object' ? d.code.value : d.code;
    const what = [SEVERITY[d.severity] ?? 'problem', code !== undefined ? String(code) : ''].filter(Boolean).join(' ');
    const message = d.message.replace(/\s+/g, ' ').trim().slice(0, 1_000);
    return `line ${d.range.start.line + 1}, column ${d.range.start.character + 1}: ${what}: ${message}${d.source ? ` (${d.source})` : ''}`;
  };
  const file = relativePath(uri);
  if (problems.length === 1) return `Fix this problem in ${file}, ${line(problems[0]!)}`;
  return [`Fix these problems in ${file}:`, ...problems.map((d) => `- ${line(d)}`)].join('\n');
}
