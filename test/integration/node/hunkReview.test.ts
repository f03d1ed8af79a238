/**
 * Node host: the agent's changes reviewed hunk by hunk in an ordinary editor (src/review/editorReview.ts). The
 * test agent edits a file in two places; in its editor each hunk has Keep and Undo (CodeLens), the commands the
 * keys run go from change to change and keep or undo the one at the cursor: keeping one and undoing the other
 * leaves the file with the kept one and the bar without the file. The user's own edits are kept: beside a hunk, its
 * Undo goes into the editor's unsaved text; inside one, Undo is refused with the reason.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';
import { chatStatus } from '../../../src/views/chatStatus';

const editor = scenarioAgent('Hunks', {
  turns: [
    {
      match: 'edit in two places',
      steps: [
        {
          diskWrite: {
            path: '${cwd}/hunks/code.ts',
            content: 'one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\nSEVEN AND A HALF\n',
          },
        },
        { text: 'edited' },
      ],
    },
    {
      match: 'edit in three places',
      steps: [
        { diskWrite: { path: '${cwd}/hunks/code.ts', content: 'ONE\ntwo\nthree\nFOUR\nfive\nsix\nSEVEN\n' } },
        { text: 'edited' },
      ],
    },
    { match: 'say nothing', steps: [{ text: 'nothing to do' }] },
    {
      match: 'alike changes',
      steps: [
        {
          diskWrite: {
            path: '${cwd}/hunks/code.ts',
            content: `${Array.from({ length: 20 }, (_, i) => `top ${i}\n`).join('')}one\ntwo\nadded\nthree\nfour\nfive\nadded\nsix\nseven\n`,
          },
        },
        { text: 'edited' },
      ],
    },
    {
      match: 'Please address my review comments',
      steps: [
        { reportPrompt: true },
        {
          diskWrite: {
            path: '${cwd}/hunks/code.ts',
            content: 'one\nTWO\nthree\nfour\nfive\nsix\nSEVEN, better\nSEVEN AND A HALF\n',
          },
        },
        { text: 'addressed' },
      ],
    },
  ],
});

const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

describe('agent changes hunk by hunk in an editor (Node host)', function () {
  this.timeout(60_000);
  let chat: Chat;
  let file: string;

  /** The CodeLens titles of the file, by line, once the review shows `expected` hunks. */
  async function lenses(count: number): Promise<string[]> {
    const uri = vscode.Uri.file(file);
    let titles: string[] = [];
    for (let i = 0; i < 100; i++) {
      const found =
        (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
      titles = found
        .filter((l) => l.command?.command.startsWith('vscode-acp.'))
        .map((l) => `${l.range.start.line}: ${l.command!.title}`);
      if (titles.filter((t) => t.endsWith('Keep')).length === count) return titles;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`lenses: ${JSON.stringify(titles)}`);
  }
  /** The Keep and Undo lenses' arguments, by line, once the review shows `count` hunks. */
  async function lensArgs(count: number): Promise<Map<string, unknown>> {
    await lenses(count);
    const found =
      (await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        vscode.Uri.file(file),
      )) ?? [];
    return new Map(
      found
        .filter((l) => /^vscode-acp\.(keep|undo)Change$/.test(l.command?.command ?? ''))
        .map((l) => [
          `${l.command!.command.slice('vscode-acp.'.length, -'Change'.length)} ${l.range.start.line}`,
          l.command!.arguments?.[0],
        ]),
    );
  }
  type ShownChat = Awaited<ReturnType<typeof acpApi>>['chats']['shown'];
  /**
   * A comment written on line 7 of the file, as VS Code's comments UI hands it to the extension (a new thread and
   * the text); `body` runs with the editor and the chat shown, and the prompt's attachments are cleared after.
   */
  async function withComment(text: string, body: (shown: vscode.TextEditor, open: ShownChat) => Promise<void>) {
    const shown = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await lenses(2);
    const controller = vscode.comments.createCommentController('test-review', 'Test');
    const open = (await acpApi()).chats.shown;
    try {
      const thread = controller.createCommentThread(shown.document.uri, new vscode.Range(6, 0, 6, 0), []);
      await vscode.commands.executeCommand('vscode-acp.review.addComment', { thread, text });
      await body(shown, open);
    } finally {
      open.composer.attachments.takeAll();
      controller.dispose();
    }
  }
  const listed = () =>
    (chat.status as { changes: { files: Array<{ label: string }> } }).changes.files.map((f) => f.label);

  beforeEach(async () => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    file = path.join(root, 'hunks', 'code.ts');
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, ORIGINAL);
    chat = await chatWithAgents({ editor }, 'editor');
    await chat.composer.send('edit in two places');
    await waitFor(chat, 'the Changes bar', () => listed().includes('hunks/code.ts'));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const api = await acpApi();
    api.chats.shown.changes?.keep();
    // Closed: the test agent numbers its sessions from 1 in each process, and a saved chat opens as the open chat
    // on its session.
    await api.chats.close(api.chats.shown.id);
  });

  it('each hunk has Keep and Undo; by the commands the keys run, one is kept and the other undone', async () => {
    const shown = await vscode.window.showTextDocument(vscode.Uri.file(file));
    assert.deepEqual(await lenses(2), [
      '1: $(check) Keep',
      '1: $(discard) Undo',
      '6: $(check) Keep',
      '6: $(discard) Undo',
    ]);
    shown.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand('vscode-acp.nextChange'); // Alt+F5
    assert.equal(shown.selection.active.line, 1);
    await vscode.commands.executeCommand('vscode-acp.keepChange'); // Ctrl+Shift+Enter
    assert.deepEqual(await lenses(1), ['6: $(check) Keep', '6: $(discard) Undo']);
    assert.deepEqual(listed(), ['hunks/code.ts'], 'still listed: one change is left');
    await vscode.commands.executeCommand('vscode-acp.nextChange');
    assert.equal(shown.selection.active.line, 6);
    await vscode.commands.executeCommand('vscode-acp.undoChange'); // Ctrl+Shift+Backspace
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'one\nTWO\nthree\nfour\nfive\nsix\nseven\n',
      'the kept hunk stays, the other is undone',
    );
    await waitFor(chat, 'the bar without the file', () => !listed().includes('hunks/code.ts'));
  });

  it("the user's own Undo of a hunk is not said at the next turn as a change by another program", async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const args = await lensArgs(2);
    await vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 1'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\nSEVEN AND A HALF\n');
    await chat.composer.send('say nothing');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle');
    const notices = chat.thread.entries.flatMap((e) => (e.kind === 'notice' ? [e.text] : []));
    assert.ok(!notices.some((t) => t.includes("between the agent's turns")), notices.join('\n'));
    assert.deepEqual(listed(), ['hunks/code.ts'], 'the other change is still listed');
    // The user's own edit is still said.
    fs.writeFileSync(file, 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN!\nSEVEN AND A HALF\n');
    await chat.composer.send('say nothing');
    await waitFor(chat, 'the notice', () =>
      chat.thread.entries.some((e) => e.kind === 'notice' && e.text.includes("between the agent's turns")),
    );
  });

  it('in the diff editor the Changes bar opens, the same keys keep and undo a hunk at the cursor', async () => {
    await (await acpApi()).chats.shown.changes!.open(file);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff tab (got ${tab?.label})`);
    assert.equal(tab.label, 'hunks/code.ts (before the agent ↔ now)', 'its title says what its two sides are');
    // The diff's right side is the file: the editor the keys act in.
    let side: vscode.TextEditor | undefined;
    for (let i = 0; i < 50 && !side; i++) {
      side = vscode.window.activeTextEditor?.document.uri.fsPath === file ? vscode.window.activeTextEditor : undefined;
      if (!side) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(side, 'the file is the active editor in the diff');
    await lenses(2); // the review has looked at the file
    side.selection = new vscode.Selection(6, 0, 6, 0);
    await vscode.commands.executeCommand('vscode-acp.undoChange');
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'one\nTWO\nthree\nfour\nfive\nsix\nseven\n',
      'the hunk at the cursor undone',
    );
    await lenses(1);
    side.selection = new vscode.Selection(1, 0, 1, 0);
    await vscode.commands.executeCommand('vscode-acp.keepChange');
    await waitFor(chat, 'the bar without the file', () => !listed().includes('hunks/code.ts'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\nfour\nfive\nsix\nseven\n', 'the kept one stays');
  });

  it('a comment on a line of the change goes to the agent with its file and lines, and is addressed when the agent changes that line', async () => {
    await withComment('Say why it is SEVEN.', async (_shown, open) => {
      const comments = () => open.changes!.comments.all;
      assert.deepEqual(
        comments().map((c) => [c.startLine, c.lines, c.text, c.state]),
        [[6, 'SEVEN', 'Say why it is SEVEN.', 'open']],
      );
      await vscode.commands.executeCommand('vscode-acp.sendComments');
      assert.deepEqual(
        open.composer.attachments.chips.map((c) => [c.label, c.icon]),
        [['Comment on code.ts', 'comment']],
      );
      assert.equal(comments()[0]!.state, 'attached', 'in the prompt being written, not sent yet');
      const sending = chat.composer.send('Please address my review comments on your changes.');
      assert.equal(comments()[0]!.state, 'sent', 'sent with that prompt');
      await sending;
      await waitFor(chat, 'the reply', () => JSON.stringify(chat.thread.entries.at(-1)).includes('addressed'));
      const reply = JSON.stringify(chat.thread.entries.at(-1));
      // This agent takes no embedded resources: the comment goes as text, naming its file and lines.
      assert.match(reply, /Review comments on hunks\/code\.ts/, reply);
      assert.match(reply, /Lines 7-7: Say why it is SEVEN\./, reply);
      await waitFor(chat, 'the comment addressed', () => comments()[0]?.state === 'addressed');

      // Opened again from what was saved, as after a window reload: the changes hunk by hunk, the comment addressed.
      const api = await acpApi();
      const sessionId = open.sessionRef!.sessionId;
      const saved = async () => (await api.sessions.list()).find((s) => s.sessionId === sessionId);
      const savedState = async () => {
        const entry = await saved();
        const transcript = entry && (await api.sessions.transcript(entry));
        return (transcript as { changes?: { comments?: Array<{ state: string }> } } | undefined)?.changes?.comments?.[0]
          ?.state;
      };
      for (let i = 0; i < 50 && (await savedState()) !== 'addressed'; i++) await new Promise((r) => setTimeout(r, 100));
      await api.chats.close(open.id);
      const opened = await api.openSaved((await saved())!);
      await waitFor(opened, 'the changes again', () => chatStatus(opened).changes.total === 1);
      assert.deepEqual(
        opened.changes!.comments.all.map((c) => [c.startLine, c.text, c.state]),
        [[6, 'Say why it is SEVEN.', 'addressed']],
      );
      const titles = await lenses(2);
      assert.ok(!titles.some((t) => t.includes('You changed these lines')), JSON.stringify(titles));
    });
  });

  it('lenses clicked one after another act on the hunks they were shown on, as the others are kept and undone', async () => {
    await chat.composer.send('edit in three places');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const args = await lensArgs(3);
    // As fast as a user clicks: no wait for the review to be looked at again (or the lenses redrawn) in between.
    await vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 0'));
    await vscode.commands.executeCommand('vscode-acp.keepChange', args.get('keep 3'));
    await vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 6'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n');
    await waitFor(chat, 'the bar without the file', () => !listed().includes('hunks/code.ts'));
  });

  it('Keep and Undo clicked at once (neither waited for) both take effect, one after the other', async () => {
    await chat.composer.send('edit in three places');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const args = await lensArgs(3);
    await Promise.all([
      vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 0')),
      vscode.commands.executeCommand('vscode-acp.keepChange', args.get('keep 3')),
      vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 6')),
    ]);
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n');
    await waitFor(chat, 'the bar without the file', () => !listed().includes('hunks/code.ts'));
  });

  it('of two alike changes, a lens clicked late acts on its own, though another now sits nearer its old line', async () => {
    await chat.composer.send('alike changes');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const args = await lensArgs(3);
    await vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 0'));
    // The first "added" was on line 22; with the 20 lines above it undone it is on line 2, the second on line 6.
    await vscode.commands.executeCommand('vscode-acp.undoChange', args.get('undo 22'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\nfour\nfive\nadded\nsix\nseven\n');
  });

  it('a comment that does not fit in the prompt (ten attachments there already) stays open, to send with the next', async () => {
    await withComment('Why SEVEN?', async (shown, open) => {
      for (let i = 0; i < 10; i++) {
        const label = `part ${i}`;
        const source = {
          type: 'selection' as const,
          uri: shown.document.uri,
          label,
          text: 'one',
          startLine: 0,
          endLine: 0,
        };
        open.composer.attachments.add(source, { label, icon: 'selection' });
      }
      await vscode.commands.executeCommand('vscode-acp.sendComments');
      assert.equal(open.composer.attachments.chips.length, 10, 'no room for it');
      assert.deepEqual(
        open.changes!.comments.all.map((c) => [c.text, c.state]),
        [['Why SEVEN?', 'open']],
      );
    });
  });

  it('a comment whose attachment the user removes before sending is open again', async () => {
    await withComment('Why SEVEN?', async (_shown, open) => {
      await vscode.commands.executeCommand('vscode-acp.sendComments');
      assert.equal(open.changes!.comments.all[0]!.state, 'attached');
      open.composer.attachments.remove(open.composer.attachments.chips[0]!.id);
      assert.equal(open.changes!.comments.all[0]!.state, 'open', 'it did not go');
    });
  });

  it("the user's edits: beside a hunk its Undo goes into the unsaved text; inside one Undo is refused", async () => {
    const shown = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await lenses(2);
    await shown.edit((e) => e.replace(new vscode.Range(3, 0, 3, 4), 'FOUR by the user'));
    await lenses(2);
    shown.selection = new vscode.Selection(1, 0, 1, 0);
    await vscode.commands.executeCommand('vscode-acp.undoChange');
    assert.equal(shown.document.getText(), 'one\ntwo\nthree\nFOUR by the user\nfive\nsix\nSEVEN\nSEVEN AND A HALF\n');
    assert.ok(shown.document.isDirty, 'in the editor, saved when the user saves');
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\nSEVEN AND A HALF\n',
      'the file on disk untouched',
    );
    await lenses(1);
    await shown.edit((e) => e.insert(new vscode.Position(6, 0), 'mine '));
    const titles = await lenses(1);
    assert.ok(titles.includes('6: You changed these lines since: no Undo here'), JSON.stringify(titles));
    shown.selection = new vscode.Selection(6, 0, 6, 0);
    const before = shown.document.getText();
    await vscode.commands.executeCommand('vscode-acp.undoChange');
    assert.equal(shown.document.getText(), before, 'nothing undone in the lines the user changed');
  });
});
