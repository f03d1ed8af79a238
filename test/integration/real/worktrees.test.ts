/**
 * Real agents side by side (issue 49): Claude Code and Codex, each against its own fake model, get one task through
 * Ask Several Agents. Each works in a worktree of its own: its file lands there and not in the user's tree, whatever
 * tool it writes with (Claude Code's Write with the path its model was told, Codex's apply_patch relative to its cwd).
 * The compare view lists both; Claude Code's is applied (the file lands in the user's tree, untracked) and Codex's
 * worktree is discarded on request; then the applied chat goes on with a third agent, OpenCode, whose model gets the
 * conversation.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import type { OpenChat as Chat } from '../../../src/extension';
import { chatStatus } from '../../../src/views/chatStatus';
import type { PermissionChoice } from '../../../src/shared/permissions';
import { acpApi, lastReply, transcript, waitFor } from '../shared/chatWaits';
import { answeringWarning, askingWith, type Asked } from '../shared/dialogs';
import { fakeLog, realAgentPair } from './config';
import { HANDOVER_PROMPT } from '../../../src/commands/continueChat';

const [first, second, third] = realAgentPair();
const configs = [first!, second!];

describe(`${configs.map((c) => c.agent.name).join(' and ')} side by side, each in a worktree`, function () {
  this.timeout(240_000);
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: folder, encoding: 'utf8' });

  it('one task to both: each writes in its worktree; one applied, the other discarded; then continued with a third agent', async () => {
    const agents = [...configs, third!].map((c) => [c.agentId, c.agent]);
    await vscode.workspace
      .getConfiguration('vscode-acp')
      .update('agents', Object.fromEntries(agents), vscode.ConfigurationTarget.Global);
    const api = await acpApi();
    await api.chat.refreshAgents();
    // The same task for both: each agent's fake model knows it by the same marker.
    const task = configs[0]!.scenario.create.marker;
    assert.ok(
      configs.every((c) => c.scenario.create.marker === task),
      'one marker for both',
    );
    const asked = await askingWith(
      task,
      configs.map((c) => c.agent.name),
      () => vscode.commands.executeCommand<Asked>('vscode-acp.askSeveralAgents'),
    );
    assert.ok(asked, 'the agents were asked');
    const chats = asked.chatIds.map((id) => api.chats.get(id)!);
    assert.equal(chats.length, 2);
    const allowed = chats.map((chat) => answering(chat, 'allow_once'));
    try {
      for (const [i, chat] of chats.entries()) {
        const done = configs[i]!.scenario.create.doneText;
        await waitFor(
          chat,
          `${configs[i]!.agent.name}'s answer`,
          () => isIdle(chat) && lastReply(chat) === done,
          120_000,
        );
      }
    } finally {
      for (const d of allowed) d.dispose();
    }
    const name = path.basename(configs[0]!.scenario.create.file);
    for (const [i, chat] of chats.entries()) {
      const place = chat.place;
      assert.ok(place, `${configs[i]!.agent.name} works in a worktree`);
      assert.equal(
        fs.readFileSync(path.join(place.path, name), 'utf8'),
        configs[i]!.scenario.create.content,
        `${configs[i]!.agent.name}'s file is in its worktree: ${transcript(chat)}`,
      );
    }
    assert.equal(fs.existsSync(path.join(folder, name)), false, "neither wrote in the user's tree");
    assert.equal(git('status', '--porcelain'), '', "the user's tree is clean");
    await waitFor(chats[0]!, 'both Changes bars', () =>
      chats.every((c) => (c.changes?.status.files.length ?? 0) === 1),
    );
    const compared = asked.compared();
    assert.deepEqual(
      compared.map((a) => [a.agent, a.state, a.files.map((f) => `${f.label} +${f.added} -${f.removed}`)]),
      configs.map((c) => [c.agent.name, 'finished', [`${name} +1 -0`]]),
    );

    // Apply the first agent's, discarding the other's worktree when asked.
    const paths = chats.map((c) => c.place!.path);
    const question = await answeringWarning(
      (buttons) => (buttons.includes('Discard Others') ? 'Discard Others' : undefined),
      () => vscode.commands.executeCommand('vscode-acp.compareApply', asked.key, compared[0]!.id),
    );
    assert.match(question.message, /^Discard the other worktree of this task/);
    assert.equal(fs.readFileSync(path.join(folder, name), 'utf8'), configs[0]!.scenario.create.content);
    assert.equal(git('status', '--porcelain').trim(), `?? ${name}`, 'a new file in the user tree, not staged');
    const listed = git('worktree', 'list', '--porcelain');
    assert.ok(listed.includes(`worktree ${paths[0]}\n`), 'the applied worktree stays until discarded');
    assert.ok(!listed.includes(paths[1]!), "the other agent's worktree is gone");

    // The applied chat goes on with a third agent, in the same worktree; its model gets the conversation.
    api.chats.show(chats[0]!.id);
    const other = third!;
    const fresh = await vscode.commands.executeCommand<Chat>('vscode-acp.continueWithAgent', other.agentId);
    assert.ok(fresh && fresh !== chats[0], 'a new chat');
    assert.equal(fresh.place?.path, paths[0], 'in the same worktree');
    const before = (await fakeLog(other)).length;
    // The conversation names the task, which the third agent's fake model would do again: its asking is refused.
    const refusing = answering(fresh, 'reject');
    try {
      await fresh.composer.send(HANDOVER_PROMPT);
      await waitFor(fresh, `${other.agent.name}'s answer`, () => isIdle(fresh) && lastReply(fresh) !== '', 120_000);
    } finally {
      refusing.dispose();
    }
    const got = (await fakeLog(other)).slice(before).map((r) => r.lastUserText ?? '');
    assert.ok(
      got.some((text) => text.includes(`This conversation was with ${first!.agent.name}`)),
      `${other.agent.name}'s model got the conversation: ${JSON.stringify(got).slice(0, 1500)}`,
    );
    assert.ok(got.some((text) => text.includes(`## Assistant\n\n${first!.scenario.create.doneText}`)));
    assert.equal(
      fs.readFileSync(path.join(folder, name), 'utf8'),
      first!.scenario.create.content,
      'nothing more written',
    );
    for (const chat of [...chats, fresh]) await api.chats.close(chat.id);
    await vscode.commands.executeCommand('vscode-acp.discardWorktree', { path: paths[0] });
    assert.ok(!git('worktree', 'list', '--porcelain').includes(paths[0]!), 'no worktree is left');
  });
});

function isIdle(chat: Chat): boolean {
  return chat.thread.turn === 'idle';
}

/** Answers each permission the chat asks for with `choice`. */
function answering(chat: Chat, choice: PermissionChoice): vscode.Disposable {
  const answered = new Set<string>();
  return chat.onDidChange(() => {
    for (const p of chatStatus(chat).permissions) {
      if (answered.has(p.requestId)) continue;
      answered.add(p.requestId);
      chat.permissions.answer(p.requestId, choice);
    }
  });
}
