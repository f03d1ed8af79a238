/**
 * Node host: the Changes bar. The test agent changes files through our
 * `fs/write_text_file` and by itself (as Claude Code and Codex do); the chat
 * lists each file with its lines, Undo puts back the exact bytes (a created
 * file goes, a deleted one returns), and refuses after the user's own edit
 * or with unsaved changes in an editor. Keep forgets a file as it is.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { answeringWarning } from '../shared/dialogs';
import { acpApi, lastReply, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { chatStatus } from '../../../src/views/chatStatus';

const changer = scenarioAgent('Changer', {
  turns: [
    {
      match: 'change files',
      steps: [
        { writeFile: { path: '${cwd}/changes/edited.txt', content: 'one\nTWO\nthree\nfour\n' } },
        { diskWrite: { path: '${cwd}/changes/created.txt', content: 'made by the agent itself\n' } },
        { diskWrite: { path: '${cwd}/changes/deleted.txt', content: null } },
        { text: 'done' },
      ],
    },
    {
      match: 'edit again',
      steps: [{ diskWrite: { path: '${cwd}/changes/edited.txt', content: 'the agent again\n' } }, { text: 'again' }],
    },
    {
      match: 'grow the big file',
      steps: [
        { diskWrite: { path: '${cwd}/changes/big.bin', content: 'now small' } },
        { diskWrite: { path: '${cwd}/changes/ignored-dir/x.txt', content: 'ignored' } },
        { text: 'grown' },
      ],
    },
    {
      match: 'diff only',
      steps: [
        // A diff the agent reports but never writes (and one it does write): the bar follows the disk, not the report.
        {
          toolCall: {
            toolCallId: 'd1',
            title: 'Edit edited.txt',
            kind: 'edit',
            status: 'completed',
            content: [{ type: 'diff', path: '${cwd}/changes/edited.txt', oldText: 'x', newText: 'imaginary' }],
          },
        },
        {
          toolCall: {
            toolCallId: 'd2',
            title: 'Edit diffed.txt',
            kind: 'edit',
            status: 'completed',
            content: [{ type: 'diff', path: '${cwd}/changes/diffed.txt', oldText: null, newText: 'real\n' }],
          },
        },
        { diskWrite: { path: '${cwd}/changes/diffed.txt', content: 'real\n' } },
        { text: 'diffed' },
      ],
    },
    {
      match: 'slow edit',
      steps: [
        { text: 'working' },
        { sleep: 1500 },
        { diskWrite: { path: '${cwd}/changes/edited.txt', content: 'the agent, after the user saved\n' } },
        { text: 'slow' },
      ],
    },
    {
      match: 'edit the end',
      steps: [
        { diskWrite: { path: '${cwd}/changes/edited.txt', content: 'zero\none\nTWO\nthree\nFOUR\n' } },
        { text: 'end edited' },
      ],
    },
    {
      match: 'work until stopped',
      steps: [
        { diskWrite: { path: '${cwd}/changes/stopped.txt', content: 'before the stop\n' } },
        { text: 'working' },
        { sleep: 30_000 },
      ],
      // An agent whose tool goes on writing after it answered the Stop.
      after: [{ sleep: 300 }, { diskWrite: { path: '${cwd}/changes/late.txt', content: 'after the stop\n' } }],
    },
    {
      match: 'third turn',
      steps: [
        { diskWrite: { path: '${cwd}/changes/third.txt', content: 'third\n' } },
        { diskWrite: { path: '${cwd}/changes/edited.txt', content: 'third turn\n' } },
        { text: 'third' },
      ],
    },
  ],
});

/** Runs `run` with the quick pick answered by `pick` (given the items' labels, says which to take). */
async function picking(pick: (labels: string[]) => string | undefined, run: () => Thenable<unknown>): Promise<void> {
  type Item = { label: string };
  type Pick = (items: readonly Item[] | Thenable<readonly Item[]>) => Promise<Item | undefined>;
  const window = vscode.window as unknown as { showQuickPick: Pick };
  const real = window.showQuickPick;
  window.showQuickPick = async (items) => {
    const all = await items;
    const label = pick(all.map((i) => i.label));
    return all.find((i) => i.label === label);
  };
  try {
    await run();
  } finally {
    window.showQuickPick = real;
  }
}

describe('the Changes bar (Node host)', function () {
  this.timeout(60_000);
  let root: string;
  let chat: Chat;
  const file = (name: string) => path.join(root, 'changes', name);
  const listed = () =>
    (chat.status as { changes: { files: Array<{ label: string; kind: string; added?: number; removed?: number }> } })
      .changes.files;
  const shown = async () => (await acpApi()).chats.shown;

  beforeEach(async () => {
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    fs.rmSync(path.join(root, 'changes'), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'changes'));
    fs.writeFileSync(file('edited.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(file('deleted.txt'), 'old\nlines\n');
    chat = await chatWithAgents({ changer }, 'changer');
    await chat.composer.send('change files');
    await waitFor(chat, 'the Changes bar', () => listed().length === 3);
  });

  it('lists each file the turn created, edited or deleted, with its added and removed lines', async () => {
    assert.equal(lastReply(chat), '[write ok][disk write ok][disk write ok]done');
    assert.deepEqual(
      listed()
        .map((f) => `${f.label} ${f.kind} +${f.added ?? '?'} -${f.removed ?? '?'}`)
        .sort(),
      ['changes/created.txt created +1 -0', 'changes/deleted.txt deleted +0 -2', 'changes/edited.txt edited +2 -1'],
    );
  });

  it('Undo All (its command) puts back the exact bytes: the edit is undone, the created file goes, the deleted one returns', async () => {
    await vscode.commands.executeCommand('vscode-acp.undoAllChanges');
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(fs.existsSync(file('created.txt')), false);
    assert.equal(fs.readFileSync(file('deleted.txt'), 'utf8'), 'old\nlines\n');
    assert.equal(listed().length, 0);
  });

  it("Undo refuses a file the user changed since, says so, and keeps the user's text", async () => {
    fs.writeFileSync(file('edited.txt'), "the user's own edit\n");
    await (await shown()).changes!.undo(file('edited.txt'));
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), "the user's own edit\n");
    assert.deepEqual(
      listed()
        .map((f) => f.label)
        .sort(),
      ['changes/created.txt', 'changes/deleted.txt', 'changes/edited.txt'],
      'still listed, to compare',
    );
    const last = chat.thread.entries[chat.thread.entries.length - 1];
    assert.equal(last.kind, 'notice');
    assert.match(
      (last as { text: string }).text,
      /^Undo left a file as it is: .*changes\/edited\.txt" was changed since the agent's change; it was left as it is\./,
    );
  });

  it('Undo refuses a file with unsaved changes in an editor', async () => {
    const doc = await vscode.workspace.openTextDocument(file('created.txt'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved '));
    await (await shown()).changes!.undo(file('created.txt'));
    assert.ok(fs.existsSync(file('created.txt')), 'not removed under the editor');
    assert.match((chat.thread.entries.at(-1) as { text: string }).text, /unsaved changes in the editor/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Keep forgets a file as it is; a later turn lists it again from the kept version', async () => {
    (await shown()).changes!.keep(file('edited.txt'));
    assert.deepEqual(
      listed()
        .map((f) => f.label)
        .sort(),
      ['changes/created.txt', 'changes/deleted.txt'],
    );
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'one\nTWO\nthree\nfour\n');
    await vscode.commands.executeCommand('vscode-acp.keepAllChanges');
    assert.equal(listed().length, 0, 'Keep All (its command) empties the bar');
    await chat.composer.send('edit again');
    await waitFor(chat, 'the file listed again', () => listed().length === 1);
    await (await shown()).changes!.undo();
    assert.equal(
      fs.readFileSync(file('edited.txt'), 'utf8'),
      'one\nTWO\nthree\nfour\n',
      'back to the kept version, not the first',
    );
  });

  it('a file opens in the diff editor: the copy from before against the file now; its Undo closes that diff', async () => {
    await (await shown()).changes!.open(file('edited.txt'));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff tab (got ${tab?.label})`);
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'vscode-acp-checkpoint');
    assert.equal(input.modified.fsPath, file('edited.txt'));
    const before = await vscode.workspace.openTextDocument(input.original);
    assert.equal(before.getText(), 'one\ntwo\nthree\n');
    await (await shown()).changes!.undo(file('edited.txt'));
    const diffs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === 'vscode-acp-checkpoint');
    assert.deepEqual(
      diffs.map((t) => t.label),
      [],
      'the diff of a change that is undone is closed',
    );
  });

  it("Restore files to here puts back what the turns from that prompt on changed, after a preview, and keeps the user's edit in between", async () => {
    const c = await shown();
    const firstPrompt = chat.thread.entries.filter((e) => e.kind === 'user').at(-1)!.id;
    await chat.composer.send('edit again');
    fs.writeFileSync(file('edited.txt'), 'the user, between two turns\n');
    await chat.composer.send('third turn');
    assert.equal(fs.readFileSync(file('third.txt'), 'utf8'), 'third\n');
    const secondPrompt = chat.thread.entries.filter((e) => e.kind === 'user').at(-2)!.id;
    assert.deepEqual((chat.status as { checkpoints: string[] }).checkpoints.slice(-3), [
      firstPrompt,
      secondPrompt,
      chat.thread.entries.filter((e) => e.kind === 'user').at(-1)!.id,
    ]);
    fs.writeFileSync(file('created.txt'), 'the user edited this in between\n');
    // From the Command Palette (the prompts newest first), cancelled at the preview: nothing changes.
    const prompts = chat.thread.entries.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    let offered: string[] = [];
    const cancelled = await answeringWarning(
      () => undefined,
      () =>
        picking(
          (labels) => ((offered = labels), 'edit again'),
          () => vscode.commands.executeCommand('vscode-acp.restoreFiles'),
        ),
    );
    assert.deepEqual(offered.slice(0, 3), prompts.slice(-3).reverse());
    assert.equal(cancelled.message, 'Restore files to how they were before this prompt?');
    assert.match(cancelled.detail, /^Put back as before this prompt:\nchanges\/(edited|third)\.txt/);
    assert.equal(fs.readFileSync(file('third.txt'), 'utf8'), 'third\n');
    // To the first prompt: every file goes back except the one the user changed since.
    const preview = await answeringWarning(
      (buttons) => buttons[0],
      () => c.changes!.restoreTo(firstPrompt),
    );
    assert.match(preview.detail, /changes\/third\.txt \(removed: the agent created it\)/);
    assert.match(preview.detail, /changes\/deleted\.txt \(comes back: the agent deleted it\)/);
    assert.match(
      preview.detail,
      /changes\/edited\.txt \(as it was; what changed in it between the agent's turns goes too\)/,
      'the edit between turns is said to go too',
    );
    assert.match(preview.detail, /Left as they are[^]*changes\/created\.txt[^]*was changed since the agent's change/);
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(fs.existsSync(file('third.txt')), false);
    assert.equal(fs.readFileSync(file('deleted.txt'), 'utf8'), 'old\nlines\n');
    assert.equal(
      fs.readFileSync(file('created.txt'), 'utf8'),
      'the user edited this in between\n',
      "the user's edit is kept",
    );
    assert.deepEqual(
      listed().map((f) => f.label),
      ['changes/created.txt'],
    );
  });

  it('a saved chat keeps its Changes bar and its checkpoints: opened again, Undo and Restore work', async () => {
    const api = await acpApi();
    const before = api.chats.shown;
    const sessionId = before.sessionRef!.sessionId;
    const saved = async () => (await api.sessions.list()).find((s) => s.sessionId === sessionId);
    // Saved once the turn's changes are known (just after the turn ends).
    for (let i = 0; i < 50; i++) {
      const entry = await saved();
      if (
        entry &&
        ((await api.sessions.transcript(entry)) as { changes?: { bar: unknown[] } }).changes?.bar.length === 3
      ) {
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await api.chats.close(before.id);
    const opened = await api.openSaved((await saved())!);
    await waitFor(opened, 'the Changes bar again', () => chatStatus(opened).changes.total === 3);
    const prompt = opened.thread.entries.find((e) => e.kind === 'user')!;
    assert.deepEqual(chatStatus(opened).checkpoints, [prompt.id]);
    await opened.changes!.undo(file('created.txt'));
    assert.equal(fs.existsSync(file('created.txt')), false);
    await answeringWarning(
      (buttons) => buttons[0],
      () => opened.changes!.restoreTo(prompt.id),
    );
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(fs.readFileSync(file('deleted.txt'), 'utf8'), 'old\nlines\n');
    assert.equal(chatStatus(opened).changes.total, 0);
  });

  it('a file the user saves while the agent works on it: marked, and Undo asks before putting back what the user saved too', async () => {
    (await shown()).changes!.keep();
    const sent = chat.composer.send('slow edit');
    // The checkpoint is taken before the agent hears the prompt: the user's save comes after it.
    await waitFor(chat, 'the agent at work', () => lastReply(chat) === 'working');
    const doc = await vscode.workspace.openTextDocument(file('edited.txt'));
    // A document an earlier test had open is VS Code's until its file watcher brings it up to date: a save before
    // that is refused (the file changed on disk since), as it would be for a person.
    const onDisk = fs.readFileSync(file('edited.txt'), 'utf8');
    for (let i = 0; i < 100 && doc.getText() !== onDisk; i++) await new Promise((r) => setTimeout(r, 50));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'the user: '));
    assert.ok(await doc.save(), 'saved');
    await sent;
    await waitFor(chat, 'the file listed', () => listed().length === 1);
    assert.equal((chat.status.changes.files[0] as { userSaved?: boolean }).userSaved, true);
    const declined = await answeringWarning(
      () => undefined,
      () => shown().then((c) => c.changes!.undo()),
    );
    assert.equal(
      declined.message,
      'These files were changed by you too (saved while the agent worked on them, or between its turns).',
    );
    assert.equal(
      fs.readFileSync(file('edited.txt'), 'utf8'),
      'the agent, after the user saved\n',
      'declined: left as it is',
    );
    await answeringWarning(
      (buttons) => buttons[0],
      () => shown().then((c) => c.changes!.undo()),
    );
    assert.equal(
      fs.readFileSync(file('edited.txt'), 'utf8'),
      'one\nTWO\nthree\nfour\n',
      'the version from before the turn',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a file over 5 MiB is listed without Undo, ignored files not at all, and ACP: Show What Checkpoints Leave Out says so', async () => {
    (await shown()).changes!.keep();
    fs.writeFileSync(path.join(root, 'changes', '.gitignore'), 'ignored-dir/\n');
    fs.mkdirSync(path.join(root, 'changes', 'ignored-dir'));
    // 200 MB, sparse: what a pass must not read. The agent rewrites big.bin; huge.bin stays.
    for (const name of ['big.bin', 'huge.bin']) {
      const fd = fs.openSync(file(name), 'w');
      fs.ftruncateSync(fd, 200 * 1024 * 1024);
      fs.closeSync(fd);
    }
    await chat.composer.send('x'); // a turn that changes nothing: the pass that learns the new files
    await chat.composer.send('grow the big file');
    await waitFor(chat, 'the big file listed', () => listed().some((f) => f.label === 'changes/big.bin'));
    const row = chat.status.changes.files.find((f) => f.label === 'changes/big.bin')!;
    assert.equal(row.noUndo, 'No copy from before: the file is over 5 MiB.');
    assert.ok(!listed().some((f) => f.label.includes('ignored-dir')), 'an ignored file is not listed');
    await vscode.commands.executeCommand('vscode-acp.showCheckpoints');
    const text = vscode.window.activeTextEditor!.document.getText();
    assert.match(
      text,
      /Left out: Git ignores them \(and \.git\), or, outside a Git repository, vscode-acp\.checkpoints\.exclude names them:\n(.*\n)* {4}changes\/ignored-dir\//,
    );
    assert.match(text, /no copy kept \(over 5 MiB\): no Undo:\n(.*\n)* {4}changes\/huge\.bin/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    fs.rmSync(file('huge.bin'));
  });

  it("what the user changes between turns is not the next turn's: the chat says so, and Undo keeps the user's lines", async () => {
    // The agent made two hunks (two -> TWO, four added); the user adds a line above them between turns.
    fs.writeFileSync(file('edited.txt'), 'zero\none\nTWO\nthree\nfour\n');
    await chat.composer.send('edit the end');
    await waitFor(chat, 'the turn counted', () =>
      listed().some((f) => f.label === 'changes/edited.txt' && f.added === 2 && f.removed === 1),
    );
    const notice = chat.thread.entries.find((e) => e.kind === 'notice' && /between the agent's turns/.test(e.text));
    assert.match(
      (notice as { text: string } | undefined)?.text ?? '(no notice)',
      /^Changed between the agent's turns \(by you or another program\): changes\/edited\.txt\. Not counted as the agent's changes\.$/,
    );
    await (await shown()).changes!.undo(file('edited.txt'));
    assert.equal(
      fs.readFileSync(file('edited.txt'), 'utf8'),
      'zero\none\ntwo\nthree\n',
      "the agent's lines go, the user's stays",
    );
  });

  it("what an agent writes after Stop is said to be so at the next prompt, and is not that turn's", async () => {
    (await shown()).changes!.keep();
    const sent = chat.composer.send('work until stopped');
    await waitFor(chat, 'the agent at work', () => lastReply(chat).endsWith('working'));
    await vscode.commands.executeCommand('vscode-acp.stop');
    await sent;
    await waitFor(chat, 'the stopped turn counted', () => listed().some((f) => f.label === 'changes/stopped.txt'));
    for (let i = 0; i < 100 && !fs.existsSync(file('late.txt')); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(fs.existsSync(file('late.txt')), 'the agent wrote after the stop');
    assert.deepEqual(
      listed().map((f) => f.label),
      ['changes/stopped.txt'],
      "not listed as the stopped turn's",
    );
    await chat.composer.send('edit again');
    await waitFor(chat, 'the next turn counted', () => listed().some((f) => f.label === 'changes/edited.txt'));
    const notice = chat.thread.entries.find((e) => e.kind === 'notice' && /was stopped/.test(e.text));
    assert.match(
      (notice as { text: string } | undefined)?.text ?? '(no notice)',
      /^Changed since the agent was stopped \(by the agent still at work, or by you\): changes\/late\.txt\. /,
    );
    assert.deepEqual(
      listed()
        .map((f) => f.label)
        .sort(),
      ['changes/edited.txt', 'changes/stopped.txt'],
      "nor as the next turn's",
    );
  });

  it('while the agent works, Undo is refused and says why; the turn then lists only what it changed', async () => {
    const sent = chat.composer.send('work until stopped');
    await waitFor(chat, 'the agent at work', () => lastReply(chat).endsWith('working'));
    await (await shown()).changes!.undo(file('edited.txt'));
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'one\nTWO\nthree\nfour\n', 'nothing put back meanwhile');
    assert.ok(
      chat.thread.entries.some(
        (e) => e.kind === 'notice' && /^The agent is still at work: undo its changes/.test(e.text),
      ),
      'the chat says why',
    );
    await vscode.commands.executeCommand('vscode-acp.stop');
    await sent;
    await waitFor(chat, 'the stopped turn counted', () => listed().some((f) => f.label === 'changes/stopped.txt'));
    assert.deepEqual(
      listed()
        .map((f) => `${f.label} ${f.kind}`)
        .sort(),
      [
        'changes/created.txt created',
        'changes/deleted.txt deleted',
        'changes/edited.txt edited',
        'changes/stopped.txt created',
      ],
    );
  });

  it("a tool call's diff that was never written lists nothing; one that was lists the file with its real bytes", async () => {
    (await shown()).changes!.keep();
    await chat.composer.send('diff only');
    await waitFor(chat, 'the written file listed', () => listed().length > 0);
    assert.deepEqual(
      listed().map((f) => `${f.label} ${f.kind} +${f.added}`),
      ['changes/diffed.txt created +1'],
    );
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'one\nTWO\nthree\nfour\n');
  });
});
