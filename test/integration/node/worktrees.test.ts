/**
 * Node host: chats in worktrees (issue 49). The workspace folder becomes a Git repository with one committed file;
 * two chats, each made by "New Chat in a Worktree", have the scripted agent change that file differently. Neither
 * touches the user's file; each Changes bar lists its own worktree's file; Apply of the first lands in the user's tree
 * as an unstaged change; Apply of the second (the same lines, changed since) opens VS Code's merge editor and writes
 * nothing; Discard asks first for unapplied changes and leaves no worktree in `git worktree list`. A file attached to
 * a worktree's chat is named by the worktree's copy; the worktree's file is reviewed hunk by hunk as a workspace's is.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { answeringWarning } from '../shared/dialogs';
import { acpApi, lastReply, waitFor } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { pathInside } from '../../../src/shared/text/pathInside';
import { chatStatus } from '../../../src/views/chatStatus';
import { reportedBlocks } from '../shared/attachmentFixtures';
import { lastNotice, sessions, waitForSaved, waitUntilAsync, worktreeRepo } from './worktreeRepo';

const agent = scenarioAgent(
  'Worktree Agent',
  {
    turns: [
      {
        match: 'make it blue',
        steps: [
          { diskWrite: { path: '${cwd}/wt/colour.txt', content: 'blue\nsame\nsame\n' } },
          { text: 'blue in ${cwd}' },
        ],
      },
      { match: 'report prompt', steps: [{ reportPrompt: true }] },
      {
        match: 'make it red',
        steps: [
          { diskWrite: { path: '${cwd}/wt/colour.txt', content: 'red\nsame\nsame\n' } },
          { text: 'red in ${cwd}' },
        ],
      },
    ],
    agentCapabilities: { promptCapabilities: { embeddedContext: true } },
  },
  ...sessions(),
);

describe('chats in worktrees (Node host)', function () {
  this.timeout(120_000);
  const { folder, userFile, git, worktreeList, chatInWorktree, listed, opened } = worktreeRepo();

  it('two chats in two worktrees change one file each their way; Apply lands one, the other goes to the merge editor; Discard removes them', async () => {
    await chatWithAgents({ worktree: agent }, 'worktree');
    const blue = await chatInWorktree();
    assert.ok(blue.place, 'the chat works in a worktree');
    assert.ok(!pathInside(blue.place.path, folder), `the worktree ${blue.place.path} is outside the workspace`);
    assert.ok(worktreeList().includes(`worktree ${blue.place.path}\n`), 'Git lists the worktree');
    await blue.composer.send('make it blue');
    await waitFor(blue, 'the blue turn', () => blue.thread.turn === 'idle' && lastReply(blue).includes('blue'), 60_000);
    assert.equal(lastReply(blue), `[disk write ok]blue in ${blue.place.path}`, "the agent's cwd is the worktree");
    await waitFor(blue, "the blue chat's Changes bar", () => listed(blue).length === 1);

    let red = await chatInWorktree();
    assert.ok(red.place && red.place.path !== blue.place.path, 'a worktree of its own');
    await red.composer.send('make it red');
    await waitFor(red, 'the red turn', () => red.thread.turn === 'idle' && lastReply(red).includes('red'), 60_000);
    await waitFor(red, "the red chat's Changes bar", () => listed(red).length === 1);

    // Each bar lists its own worktree's file; the user's file is untouched.
    assert.deepEqual(listed(blue), [path.join(blue.place.path, 'wt', 'colour.txt')]);
    assert.deepEqual(listed(red), [path.join(red.place.path, 'wt', 'colour.txt')]);
    assert.equal(fs.readFileSync(userFile, 'utf8'), 'green\nsame\nsame\n');

    // The red chat closed: its worktree is listed in the Sessions view, and opens its chat again, transcript and all.
    const api = await acpApi();
    const listedWorktrees = async () =>
      (await api.sessionsTree.getChildren()).flatMap((n) => (n.kind === 'worktree' ? [n.worktree] : []));
    const redPath = red.place.path;
    // Saved in the history (from its first finished turn on), as a user who closes it later finds it.
    await waitForSaved(async () => (await api.sessions.list()).some((entry) => entry.cwd === redPath));
    await api.chats.close(red.id);
    const item = (await listedWorktrees()).find((w) => w.tooltip.includes(redPath));
    assert.ok(item, "the closed chat's worktree is listed");
    assert.ok(!(await listedWorktrees()).some((w) => w.tooltip.includes(blue.place!.path)), "an open chat's is not");
    await vscode.commands.executeCommand('vscode-acp.openWorktreeChat', item.id);
    red = api.chats.shown;
    opened.push(red);
    assert.equal(red.place?.path, redPath, 'its chat, in its worktree');
    assert.match(lastReply(red), /^\[disk write ok\]red in /);
    assert.deepEqual(listed(red), [path.join(redPath, 'wt', 'colour.txt')], 'its Changes bar as it was');

    // Apply the blue one (the command acts on the shown chat): the user's tree has it, unstaged.
    api.chats.show(blue.id);
    await vscode.commands.executeCommand('vscode-acp.applyWorktree');
    assert.equal(fs.readFileSync(userFile, 'utf8'), 'blue\nsame\nsame\n');
    assert.equal(git('status', '--porcelain', '--', 'wt').trim(), 'M wt/colour.txt', 'an unstaged change');

    // Apply the red one: the user's line changed since, so it is a conflict for the merge editor; nothing written.
    api.chats.show(red.id);
    await vscode.commands.executeCommand('vscode-acp.applyWorktree');
    assert.equal(fs.readFileSync(userFile, 'utf8'), 'blue\nsame\nsame\n', "the user's file is not overwritten");
    assert.match(lastNotice(red), /1 in conflict with your changes, opened in the merge editor: wt\/colour\.txt/);
    const merge = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.input as { result?: vscode.Uri; input2?: vscode.Uri } | undefined)
      .find((input) => input?.result !== undefined);
    assert.ok(merge, 'a merge editor is open');
    assert.equal(merge.result!.fsPath, userFile, "its result is the user's file");
    assert.equal(merge.input2!.fsPath, path.join(redPath, 'wt', 'colour.txt'), "one side is the agent's version");
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // Discard the red one: it holds a change not applied, so the user is asked first; then Git lists it no more.
    const asked = await answeringWarning(
      () => 'Discard',
      () => vscode.commands.executeCommand('vscode-acp.discardWorktree'),
    );
    assert.match(asked.message, /1 changed file not applied to your workspace/);
    assert.ok(!worktreeList().includes(redPath), 'Git lists the red worktree no more');
    assert.equal(fs.existsSync(redPath), false);
    assert.ok(!(await listedWorktrees()).some((w) => w.id === item.id), 'nor does the Sessions view');
    // The blue one was applied: discarded without a question (as its chat's worktree note asks: by its folder).
    const none = await answeringWarning(
      () => undefined,
      () => vscode.commands.executeCommand('vscode-acp.discardWorktree', { path: blue.place!.path }),
    );
    assert.equal(none.message, '(none)');
    assert.ok(!worktreeList().includes(blue.place.path), 'Git lists the blue worktree no more');
    assert.equal(fs.readFileSync(userFile, 'utf8'), 'blue\nsame\nsame\n', 'the applied change stays');
  });

  it("a file of the workspace attached to a worktree's chat is named by the worktree's copy, with the user's text", async () => {
    await chatWithAgents({ worktree: agent }, 'worktree');
    const chat = await chatInWorktree();
    // The user's version differs from the worktree's (their change is not committed, and was not carried).
    fs.writeFileSync(userFile, 'cyan\nsame\nsame\n');
    await vscode.commands.executeCommand('vscode-acp.attachFiles', [vscode.Uri.file(userFile)]);
    await waitFor(chat, 'the attachment read', () => chatStatus(chat).attachments.every((a) => a.state === 'ready'));
    await chat.composer.send('report prompt');
    await waitFor(chat, 'the report', () => chat.thread.turn === 'idle' && lastReply(chat).startsWith('[prompt:'));
    const resource = reportedBlocks(lastReply(chat)).find((b) => (b as { type: string }).type === 'resource');
    assert.deepEqual(resource, {
      type: 'resource',
      uri: vscode.Uri.file(path.join(chat.place!.path, 'wt', 'colour.txt')).toString(),
      mimeType: 'text/plain',
      text: 'cyan\nsame\nsame\n',
    });
    await vscode.commands.executeCommand('vscode-acp.discardWorktree', { path: chat.place!.path });
  });

  it("the worktree's file is reviewed in an editor as a workspace file is: its hunk's Undo puts the worktree's copy back", async () => {
    git('checkout', '--', 'wt/colour.txt');
    await chatWithAgents({ worktree: agent }, 'worktree');
    const chat = await chatInWorktree();
    await chat.composer.send('make it blue');
    await waitFor(chat, 'the Changes bar', () => chat.thread.turn === 'idle' && listed(chat).length === 1, 60_000);
    const copy = vscode.Uri.file(path.join(chat.place!.path, 'wt', 'colour.txt'));
    await vscode.window.showTextDocument(copy);
    let undo: vscode.Command | undefined;
    await waitUntilAsync("the Undo lens on the agent's change", async () => {
      const lenses =
        (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', copy)) ?? [];
      undo = lenses.find((l) => l.command?.command === 'vscode-acp.undoChange')?.command;
      return undo !== undefined;
    });
    await vscode.commands.executeCommand(undo!.command, ...(undo!.arguments ?? []));
    assert.equal(fs.readFileSync(copy.fsPath, 'utf8'), 'green\nsame\nsame\n', "the worktree's copy is back");
    await waitFor(chat, 'the bar without the file', () => listed(chat).length === 0);
    assert.equal(git('status', '--porcelain', '--', 'wt'), '', "the user's file untouched");
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('vscode-acp.discardWorktree', { path: chat.place!.path });
  });
});
