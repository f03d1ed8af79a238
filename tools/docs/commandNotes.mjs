/**
 * What each command of the Command Palette does, for docs/reference.md (tools/docs/reference.mjs): one entry per
 * command package.json shows there; the lint fails when one is missing or names no such command.
 */
export const COMMAND_NOTES = {
  'vscode-acp.connect':
    'Starts (or reaches) the selected agent and opens a session; with a transcript on screen it continues that session where the agent can (`session/resume`, else `session/load`)',
  'vscode-acp.disconnect':
    "Ends the chat's session (its commands end); the agent process ends with the last chat using it",
  'vscode-acp.newChat':
    'Ctrl+L (Cmd+L on macOS) in the chat view: opens another chat with the same agent, connected if the one before was; the one before stays open',
  'vscode-acp.newChatInWorktree':
    "(desktop and remote hosts, a trusted folder in a Git repository) A new chat whose agent works in its own Git worktree, outside the workspace: detached at the current commit or on a new branch you name, your uncommitted changes carried only if you say so. Its files, terminals, checkpoints and Changes bar are the worktree's; your files are not touched",
  'vscode-acp.askSeveralAgents':
    "(desktop and remote hosts, a trusted folder in a Git repository) Gives one task, with the shown chat's attachments, to 2 to 4 agents you pick (the same agent with several models counts: offered once per model its open chats show), each in a chat of its own in a worktree of its own, grouped under the task in the chat list, and opens the **compare view**: each agent's answer state, the files it changed with their line counts, **Run a task in each worktree...** (one of your tasks, run in each worktree, its outcome per agent), **compare** any two versions of a file (the agents', your workspace's) side by side, and each one's Show the chat, Apply (then, if you say so, the others' worktrees are discarded), Open and Discard",
  'vscode-acp.compareTask':
    '(desktop and remote hosts) Opens the compare view of a task given to several agents again (closed, or after a window reload), while its worktrees are kept: the task picked from those, by name, agents and date',
  'vscode-acp.applyWorktree':
    "The shown chat's worktree (or the one you pick): what its agent changed comes into your workspace as unstaged changes. A file you changed too is merged; where you both changed the same lines, VS Code's merge editor opens on your file (yours, the agent's, the version it started from) and nothing is written until you complete it",
  'vscode-acp.openWorktree': "Opens the worktree's folder in a new VS Code window",
  'vscode-acp.discardWorktree':
    'Removes the worktree and its files (asks first when it holds changes not applied); a branch you named stays',
  'vscode-acp.continueWithAgent':
    'A new chat with the agent you pick, in the same folder or worktree, its prompt box holding the conversation so far as an attached Markdown file (the newest 100,000 characters of the transcript, and the changed files not kept yet): send it as it is, or say what to do next first. The chat you left says where it went on',
  'vscode-acp.closeChat': 'Closes the chat shown: its session ends (`session/close` where the agent offers it)',
  'vscode-acp.openChatInEditor': 'Shows the chat in an editor tab beside the editor (it closes with the chat)',
  'vscode-acp.loadSession':
    "Picks a chat from this workspace's history and opens it with its saved transcript; the next prompt continues its session",
  'vscode-acp.deleteSession':
    "Removes a chat from this workspace's history (and, only if you choose so, the agent's own copy)",
  'vscode-acp.clearChat':
    'Clears the transcript only: the session and its running commands go on, "always allow" grants are revoked',
  'vscode-acp.keepAllChanges': "The Changes bar's Keep All and Undo All, for the chat shown",
  'vscode-acp.nextChange':
    'Moves to the next (previous) change of the agent in the editor, then on to the next file of the Changes bar',
  'vscode-acp.previousChange':
    'Moves to the next (previous) change of the agent in the editor, then on to the next file of the Changes bar',
  'vscode-acp.keepChange': "Keeps or undoes the agent's change at the cursor (see [Review](review.md))",
  'vscode-acp.undoChange': "Keeps or undoes the agent's change at the cursor (see [Review](review.md))",
  'vscode-acp.keepFileChanges': "The Changes bar's Keep, Undo and diff for the file of the active editor",
  'vscode-acp.openFileChanges': "The Changes bar's Keep, Undo and diff for the file of the active editor",
  'vscode-acp.undoFileChanges': "The Changes bar's Keep, Undo and diff for the file of the active editor",
  'vscode-acp.sendComments':
    "The open review comments on the agent's changes (see [Review](review.md)) into the chat's next prompt",
  'vscode-acp.undoAllChanges': "The Changes bar's Keep All and Undo All, for the chat shown",
  'vscode-acp.restoreFiles':
    "A prompt's **Restore files to here**, from the Command Palette: the chat's prompts that have it, newest first; a preview before anything changes",
  'vscode-acp.renameChat': 'Names the shown chat (see [The chat](chat.md))',
  'vscode-acp.exportChat':
    "The shown chat's transcript (prompts, answers, thoughts, tool calls with their input and output; secrets redacted) to a Markdown file you pick. Each message also has **Copy** (its whole text)",
  'vscode-acp.toggleFollow':
    "The view's Follow button: while the agent works, the file it is at opens in a preview editor",
  'vscode-acp.stop':
    'Cancels the running turn (`session/cancel`); an agent that has not ended it 1.5 s later (or at a second Stop) has it ended by the chat, which then offers Restart (Send is back within 2 s of the click)',
  'vscode-acp.attachFiles':
    "The paperclip: a search over the workspace's files (open editors first), or Browse…; the chosen file goes with the shown chat's next prompt",
  'vscode-acp.addSelection':
    "Ctrl+Alt+Shift+I (Cmd+Shift+I on macOS), or the editor's context menu: adds the selected lines to the shown chat's next prompt and focuses it",
  'vscode-acp.addTerminalSelection':
    "Or the terminal's context menu: adds the text selected in the active terminal to the shown chat's next prompt",
  'vscode-acp.restart':
    "Ends the agent process (its pending permission prompts are answered cancelled, its commands end) and starts it again with a new session for the chat shown: the transcript stays, marked where the new session begins, and the session before stays in the history. The other chats on that process reconnect and continue theirs. The **Restart agent** button a chat offers after a Stop the agent did not confirm continues the chat's session instead, where the agent can",
  'vscode-acp.showMcpServers':
    "Shows the MCP servers the shown chat's next session gets, source by source, and why any is left out (values are not shown)",
  'vscode-acp.showCheckpoints':
    'Lists, per workspace folder, what the Changes bar cannot cover: what Git ignores, files over 5 MiB (listed when changed, without Undo), files with no copy because the storage is full, names that could not be read',
  'vscode-acp.showDiagnostics':
    'Opens the **ACP Diagnostics** output channel (and offers to turn it on): one JSON line per ACP message with its direction, method, timing, outcome and sizes, and per call to the editor server with its tool, argument names, time and answer size, never their content',
  'vscode-acp.signOut': "Asks the shown chat's agent to sign out (`logout`), where it offers that",
  'vscode-acp.setBridgeToken': '(web only) Pastes the bridge URL and token',
  'vscode-acp.sessions.refresh': "The Sessions view's Refresh: each expanded agent lists its sessions again",
};
