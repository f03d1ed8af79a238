/**
 * A local agent in Restricted Mode. An agent started in a folder reads that
 * folder's own configuration and runs what it names: Claude Code its hooks
 * (`.claude/settings.json`), OpenCode the MCP commands of `opencode.json`,
 * Gemini CLI those of `.gemini/settings.json`. The extension's own file and
 * terminal handlers are off in Restricted Mode, but that does not stop the
 * agent's process; so in an untrusted folder it starts only when the user
 * says so, each time. An agent served elsewhere (a URL) is not started here
 * and is not asked about.
 */
import * as vscode from 'vscode';

export const TRUST_FOLDER = 'Trust Folder';
export const CONNECT_ONCE = 'Connect Once Anyway';

/** Whether `agentName` may start in `folder` now: at once when the workspace is trusted, else as the user answers. */
export async function mayStartIn(folder: vscode.WorkspaceFolder, agentName: string): Promise<boolean> {
  if (vscode.workspace.isTrusted) return true;
  const answer = await vscode.window.showWarningMessage(
    `${agentName} would start in ${folder.name}, which is in Restricted Mode, and may run the folder's own configuration (its hooks, MCP servers and settings).`,
    {
      modal: true,
      detail:
        "Trust the folder if you trust its authors, or connect this once: the agent's file access and terminals through VS Code stay off while the folder is not trusted.",
    },
    TRUST_FOLDER,
    CONNECT_ONCE,
  );
  // VS Code's own Workspace Trust editor: once trusted, connecting again starts the agent without asking.
  if (answer === TRUST_FOLDER) await vscode.commands.executeCommand('workbench.trust.manage');
  return answer === CONNECT_ONCE;
}
