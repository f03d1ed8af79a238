/**
 * A trusted folder that is a hostile Git repository (hostileRepo.ts: a partial clone whose config names a program
 * of its own wherever Git runs one: filter drivers, lazy fetch over "ssh", fsmonitor, pagers, hooks, an includeIf
 * that turns them back on; each program leaves a marker when run). A whole checkpoint cycle through the extension
 * (the pass before a prompt, the agent's edits of filtered files, the turn's end, the next prompt's pass, Undo)
 * leaves no marker: Git as the checkpoints use it runs nothing of the repository's (src-node/checkpoints/gitProcess.ts).
 * VS Code's own Git extension is off in this window: it runs the repository's programs, as Git does for a user.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, waitFor } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from '../node/scenarioAgents';

const write = (name: string, content: string) => ({ writeFile: { path: `\${cwd}/${name}`, content } });
const scenario = {
  turns: [
    {
      match: '^edit',
      steps: [
        write('a.f', 'a, by the agent\n'),
        write('b.p', 'b, by the agent\n'),
        write('c.i', 'c, by the agent\n'),
        write('e.e', 'e, by the agent\n'),
        write('d.txt', 'd, by the agent\n'),
        { text: 'edited' },
      ],
    },
    { match: '', steps: [{ text: 'again' }] },
  ],
};

describe('Checkpoints in a hostile Git repository', function () {
  this.timeout(90_000);
  const markers = process.env.ACP_HOSTILE_MARKERS ?? '';
  const left = () => fs.readdirSync(markers).sort();

  it("a whole checkpoint cycle through the extension runs nothing of the repository's own", async () => {
    assert.ok(vscode.workspace.isTrusted, 'a trusted folder: checkpoints are taken');
    assert.ok(markers !== '' && fs.existsSync(markers), 'the harness said where the markers go');
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    assert.ok(fs.existsSync(path.join(root, '.git')), 'the folder is a Git repository');
    assert.deepEqual(left(), [], 'no marker before');
    const chat = await chatWithAgents({ editor: scenarioAgent('Editor', scenario) }, 'editor');
    await chat.composer.send('edit filtered files');
    await waitFor(chat, 'the Changes bar', () => chat.status.changes.total === 5, 30_000);
    assert.deepEqual(left(), [], 'after the first pass, the edits and the turn end');
    await chat.composer.send('and again');
    assert.deepEqual(left(), [], "after the next prompt's pass");
    // Undo waits for nothing: while the turn's end is still being recorded it only says so (a loaded machine).
    const changes = (await acpApi()).chats.shown.changes!;
    await changes.settled;
    await changes.undo();
    assert.equal(fs.readFileSync(path.join(root, 'a.f'), 'utf8'), 'a\n', 'Undo put the filtered file back');
    assert.equal(fs.readFileSync(path.join(root, 'd.txt'), 'utf8'), 'd\n');
    assert.deepEqual(left(), [], 'after Undo');
  });
});
