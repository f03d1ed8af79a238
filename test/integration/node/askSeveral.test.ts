/**
 * Node host: Ask Several Agents (issue 49). One task to two scripted agents, each in a worktree of its own, grouped
 * under the task in the chat list; the compare view with a task of the workspace run in each worktree; Apply of one
 * from it, the other discarded when asked. The same agent picked once per model: each chat on its model; the task
 * compared again from the Command Palette once its view is closed, a closed chat reopened from it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { answeringWarning, askingWith, type Asked, withQuickPick } from '../shared/dialogs';
import { acpApi, lastReply, waitFor } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { chatStatus } from '../../../src/views/chatStatus';
import { type OpenChat, sessions, waitUntil, waitUntilAsync, worktreeRepo } from './worktreeRepo';

const LONG_NAME = `Smart ${'x'.repeat(1_000)}`;

describe('Ask Several Agents (Node host)', function () {
  this.timeout(120_000);
  const { folder, userFile, git, worktreeList, opened, listed } = worktreeRepo();

  it('Ask Several Agents: one task to two agents, each in its worktree, grouped; the compare view with a task run in each; Apply one, discard the other', async () => {
    git('checkout', '--', 'wt/colour.txt');
    // The user's task: it passes where the file says purple.
    const check = "process.exit(require('fs').readFileSync('wt/colour.txt', 'utf8').startsWith('purple') ? 0 : 1)";
    fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(folder, '.vscode', 'tasks.json'),
      JSON.stringify({
        version: '2.0.0',
        tasks: [{ label: 'check the colour', type: 'process', command: process.execPath, args: ['-e', check] }],
      }),
    );
    await chatWithAgents({ one: painter('Agent One', 'yellow'), two: painter('Agent Two', 'purple') });
    const api = await acpApi();
    const asked = await askingWith('paint it', ['Agent One', 'Agent Two'], () =>
      vscode.commands.executeCommand<Asked>('vscode-acp.askSeveralAgents'),
    );
    assert.ok(asked, 'the agents were asked');
    const chats = asked.chatIds.map((id) => api.chats.get(id)!);
    opened.push(...chats);
    assert.equal(chats.length, 2);
    assert.ok(chats[0]!.place && chats[1]!.place && chats[0]!.place.path !== chats[1]!.place.path, 'a worktree each');
    for (const chat of chats) {
      await waitFor(
        chat,
        'its answer',
        () => chat.thread.turn === 'idle' && chat.thread.entries.some((e) => e.kind === 'assistant'),
        60_000,
      );
      await waitFor(chat, 'its Changes bar', () => listed(chat).length === 1);
    }
    assert.deepEqual(
      api.chats
        .summaries()
        .filter((c) => asked.chatIds.includes(c.id))
        .map((c) => c.group),
      ['Task: paint it', 'Task: paint it'],
      'grouped under the task in the chat list',
    );
    const compared = asked.compared();
    assert.deepEqual(
      compared.map((a) => [a.agent, a.state, a.files.map((f) => `${f.label} +${f.added} -${f.removed}`)]),
      [
        ['Agent One', 'finished', ['wt/colour.txt +1 -1']],
        ['Agent Two', 'finished', ['wt/colour.txt +1 -1']],
      ],
    );
    assert.equal(fs.readFileSync(userFile, 'utf8'), 'green\nsame\nsame\n', "neither touched the user's file");
    // A task of the workspace run in each worktree: each card says how it ended there (once VS Code read tasks.json).
    await waitUntilAsync('the task in tasks.json', async () =>
      (await vscode.tasks.fetchTasks()).some((t) => t.name === 'check the colour'),
    );
    await withQuickPick(
      (items) => items.find((i) => i.label === 'check the colour'),
      () => Promise.resolve(vscode.commands.executeCommand('vscode-acp.compareRunTask', asked.key)),
    );
    await waitUntil('both tasks ended', () => asked.compared().every((a) => a.task && a.task.state !== 'running'));
    assert.deepEqual(
      asked.compared().map((a) => [a.agent, a.task]),
      [
        ['Agent One', { name: 'check the colour', state: 'failed', code: 1 }],
        ['Agent Two', { name: 'check the colour', state: 'passed', code: 0 }],
      ],
    );
    // Apply Agent Two's from the compare view, and discard the other worktree when asked.
    const asking = await answeringWarning(
      (buttons) => (buttons.includes('Discard Others') ? 'Discard Others' : undefined),
      () => vscode.commands.executeCommand('vscode-acp.compareApply', asked.key, compared[1]!.id),
    );
    assert.match(asking.message, /^Discard the other worktree of this task \(Agent One\)\?/);
    assert.equal(fs.readFileSync(userFile, 'utf8'), 'purple\nsame\nsame\n');
    assert.ok(!worktreeList().includes(chats[0]!.place!.path), "Agent One's worktree is gone");
    assert.ok(worktreeList().includes(chats[1]!.place!.path), "the applied one's stays until discarded");
    assert.deepEqual(
      asked.compared().map((a) => a.agent),
      ['Agent Two'],
    );
    await vscode.commands.executeCommand('vscode-acp.discardWorktree', compared[1]!.id);
    assert.ok(!worktreeList().includes(chats[1]!.place!.path));
  });

  it('Ask Several Agents: the same agent once per model, each chat on its model, named so in the compare view', async () => {
    const modelled = scenarioAgent(
      'Model Agent',
      {
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            category: 'model',
            type: 'select',
            currentValue: 'fast',
            options: [
              { value: 'fast', name: 'Fast' },
              // A name of any length an agent sends: the task's record keeps a bounded one (else it would not parse).
              { value: 'smart', name: LONG_NAME },
            ],
          },
        ],
        turns: [{ match: 'think it over', steps: [{ text: 'thought' }] }],
      },
      ...sessions(),
    );
    await chatWithAgents({ modelled }, 'modelled');
    const api = await acpApi();
    const shown = api.chats.shown;
    assert.equal(await shown.connect(), true);
    // Its models are known from this chat's session: the pick offers the agent once per model.
    await waitFor(shown, 'the models', () => chatStatus(shown).controls.configOptions.length > 0);
    const asked = await askingWith('think it over', ['Model Agent · Fast', `Model Agent · ${LONG_NAME}`], () =>
      vscode.commands.executeCommand<Asked>('vscode-acp.askSeveralAgents'),
    );
    assert.ok(asked, 'the agent was asked twice');
    const chats = asked.chatIds.map((id) => api.chats.get(id)!);
    opened.push(...chats);
    const model = (chat: OpenChat) => {
      const option = chatStatus(chat).controls.configOptions.find((o) => o.id === 'model');
      return option && 'currentValue' in option ? option.currentValue : undefined;
    };
    for (const chat of chats) {
      await waitFor(chat, 'its answer', () => chat.thread.turn === 'idle' && lastReply(chat) === 'thought', 60_000);
    }
    assert.deepEqual(chats.map(model), ['fast', 'smart'], 'each chat on the model it was picked with');
    assert.deepEqual(
      asked.compared().map((a) => a.agent),
      ['Model Agent (Fast)', `${`Model Agent (${LONG_NAME})`.slice(0, 199)}…`],
    );
    // Its view closed (or the window reloaded), the task is compared again from the Command Palette: picked by name.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const again = await withQuickPick(
      (items) => items.find((i) => i.label === 'Task: think it over'),
      () => Promise.resolve(vscode.commands.executeCommand<string>('vscode-acp.compareTask')),
    );
    assert.equal(again, asked.key, 'the same task');
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    await waitUntil(`its compare view open again (tabs: ${tabs().join(', ')})`, () =>
      tabs().includes('Compare: Task: think it over'),
    );
    // A closed chat's "Show the chat" opens it again, in its worktree.
    const closedPath = chats[1]!.place!.path;
    await api.chats.close(chats[1]!.id);
    assert.equal(asked.compared()[1]!.state, 'closed');
    await vscode.commands.executeCommand('vscode-acp.compareShowChat', asked.compared()[1]!.id);
    assert.equal(api.chats.shown.place?.path, closedPath, 'its chat, reopened in its worktree');
    assert.equal(api.chats.shown.place?.task, 'Task: think it over', 'grouped under its task again');
    opened.push(api.chats.shown);
    for (const a of asked.compared()) await vscode.commands.executeCommand('vscode-acp.discardWorktree', a.id);
    assert.equal(asked.compared().length, 0, 'both worktrees discarded (nothing changed in them: not asked)');
  });
});

/** The scripted agent that writes `colour` as the first line of the file, in its cwd (its worktree). */
function painter(name: string, colour: string) {
  return scenarioAgent(
    name,
    {
      turns: [
        {
          match: 'paint it',
          steps: [
            { diskWrite: { path: '${cwd}/wt/colour.txt', content: `${colour}\nsame\nsame\n` } },
            { text: colour },
          ],
        },
      ],
    },
    ...sessions(),
  );
}
