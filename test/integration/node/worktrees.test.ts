/**
 * Node host: chats in worktrees (issue 49). The workspace folder becomes a Git repository with one committed file;
 * two chats, each made by "New Chat in a Worktree", have the scripted agent change that file differently. Neither
 * touches the user's file; each Changes bar lists its own worktree's file; Apply of the first lands in the user's tree
 * as an unstaged change; Apply of the second (the same lines, changed since) opens VS Code's merge editor and writes
 * nothing; Discard asks first for unapplied changes and leaves no worktree in `git worktree list`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { answeringWarning, askingWith, type Asked, withQuickPick } from '../shared/dialogs';
import { acpApi, lastReply, waitFor } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { pathInside } from '../../../src/shared/text/pathInside';
import { chatStatus } from '../../../src/views/chatStatus';
import { reportedBlocks } from '../shared/attachmentFixtures';

type OpenChat = Awaited<ReturnType<typeof acpApi>>['chats']['shown'];

/**
 * Session ids unique across processes (`--sessions`), as real agents make them: each worktree's chat has a process of
 * its own, and a counter would give both chats "sess-1" (the history keys sessions by agent and id).
 */
const sessions = () => ['--sessions', fs.mkdtempSync(path.join(os.tmpdir(), 'acp-worktree-sessions-'))];

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
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const userFile = path.join(folder, 'wt', 'colour.txt');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: folder,
      encoding: 'utf8',
    });
  const worktreeList = () => git('worktree', 'list', '--porcelain');
  const opened: OpenChat[] = [];

  before(() => {
    git('init', '-q');
    fs.mkdirSync(path.join(folder, 'wt'), { recursive: true });
    fs.writeFileSync(userFile, 'green\nsame\nsame\n');
    git('add', 'wt/colour.txt');
    git('commit', '-q', '-m', 'first');
  });
  after(async () => {
    const api = await acpApi();
    for (const chat of opened) await api.chats.close(chat.id);
    git('worktree', 'prune');
    fs.rmSync(path.join(folder, '.git'), { recursive: true, force: true });
    fs.rmSync(path.join(folder, 'wt'), { recursive: true, force: true });
    fs.rmSync(path.join(folder, '.vscode', 'tasks.json'), { force: true });
  });

  /** "New Chat in a Worktree", detached, the user's uncommitted files left behind; the chat it opened. */
  async function chatInWorktree(): Promise<OpenChat> {
    const api = await acpApi();
    const before = api.chats.shown;
    await withQuickPick(
      (items) => items.find((i) => i.label.startsWith('Detached') || i.label.startsWith('Start from the last commit')),
      () => Promise.resolve(vscode.commands.executeCommand('vscode-acp.newChatInWorktree')),
    );
    const chat = api.chats.shown;
    assert.ok(chat !== before, 'a new chat is shown');
    opened.push(chat);
    return chat;
  }

  const listed = (chat: OpenChat) => chat.changes?.status.files.map((f) => f.path) ?? [];

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
              { value: 'smart', name: 'Smart' },
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
    const asked = await askingWith('think it over', ['Model Agent · Fast', 'Model Agent · Smart'], () =>
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
      ['Model Agent (Fast)', 'Model Agent (Smart)'],
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

async function waitUntilAsync(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function waitUntil(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitForSaved(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the chat was not saved in the history within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function lastNotice(chat: OpenChat): string {
  const notices = chat.thread.entries.filter((e) => e.kind === 'notice');
  return (notices.at(-1) as { text: string } | undefined)?.text ?? '(no notice)';
}
