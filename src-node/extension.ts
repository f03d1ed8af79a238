/** Node entry: desktop VS Code and remote hosts. */
import './zodConfig';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateWith, deactivateWith, type AcpExtensionApi } from '../src/extension';
import { changesFeature } from '../src/changesFeature';
import { setting } from '../src/settings/settings';
import { NodePlatform } from './nodePlatform';
import { userGit } from './nodeCheckpoints';
import { ChatWorktrees } from './worktrees/chatWorktrees';
import { WorktreeRecords } from './worktrees/worktreeRecords';
import { registerWorktreeCommands } from './worktrees/worktreeCommands';
import { openWorktreeChat, worktreeListing } from './worktrees/worktreeListing';

export function activate(context: vscode.ExtensionContext): AcpExtensionApi {
  const records = new WorktreeRecords(context.workspaceState);
  const platform = new NodePlatform(context.storageUri, context.globalStorageUri, records);
  // Worktrees go where the user's setting says (an absolute path), else under the extension's global storage.
  const location = () => {
    const chosen = setting('worktrees.location');
    return path.isAbsolute(chosen) ? chosen : path.join(context.globalStorageUri.fsPath, 'worktrees');
  };
  const worktrees = new ChatWorktrees(records, { git: userGit, location });
  const mergeFolder = (record: { id: string }) => path.join(context.globalStorageUri.fsPath, 'merges', record.id);
  return activateWith(context, platform, changesFeature, ({ chats, agentList, store, sessionsTree }) => [
    ...registerWorktreeCommands({
      chats,
      agentList,
      worktrees,
      mergeFolder,
      firstLook: async (folder) => {
        const checkpoints = platform.checkpoints;
        if (checkpoints) checkpoints.release(await checkpoints.mark(false, [folder]));
      },
      forget: (record) => {
        platform.checkpoints?.forget(record.path);
        fs.rmSync(mergeFolder(record), { recursive: true, force: true });
      },
    }),
    sessionsTree.showWorktrees(worktreeListing(records, chats)),
    vscode.commands.registerCommand('vscode-acp.openWorktreeChat', async (id?: unknown) => {
      if (typeof id !== 'string' || !(await openWorktreeChat(records, chats, store, id))) return;
      await vscode.commands.executeCommand('vscode-acp.focusChat');
    }),
  ]);
}

/** Waits for the chat history's writes under way (VS Code gives deactivation a few seconds). */
export function deactivate(): Promise<unknown> {
  return deactivateWith();
}
