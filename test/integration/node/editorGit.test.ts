/**
 * Node host: the editor server's `changes` and the `@changes` mention with a real Git repository, through VS Code's
 * Git extension (the other tests' folders have none): a repository in a folder of the workspace, one file changed
 * since its commit and one new. The agent gets the files and a file's diff as Git has them; `@changes` sends both.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Mentions } from '../../../src/attachments/mentions';
import { workingTreeChanges } from '../../../src/editorServer/editorContext';
import { VscodeEditor } from '../../../src/editorServer/vscodeEditor';
import * as assert from '../shared/assert';
import { reportedBlocks } from '../shared/attachmentFixtures';
import { lastReply, transcript, waitFor } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly workingTreeChanges: readonly unknown[]; readonly untrackedChanges?: readonly unknown[] };
  status(): Promise<void>;
}
interface GitApi {
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
  readonly repositories: readonly GitRepository[];
}

describe('changes and @changes with a real Git repository (Node host)', function () {
  this.timeout(120_000);
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const repo = path.join(folder, 'git-fixture');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: repo,
      stdio: 'pipe',
    });

  before(() => {
    fs.mkdirSync(repo, { recursive: true });
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'total.ts'), 'export const total = 1;\n');
    git('add', 'total.ts');
    git('commit', '-q', '-m', 'first');
    fs.writeFileSync(path.join(repo, 'total.ts'), 'export const total = 2;\n');
    fs.writeFileSync(path.join(repo, 'added.ts'), 'export const added = true;\n');
  });
  after(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("gives the agent Git's changed files and a file's diff, and @changes sends both", async () => {
    // The repository as VS Code's Git has it (as the Source Control view opens one in a folder of the workspace).
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    assert.ok(extension, "VS Code's Git extension");
    const api = (await extension.activate()).getAPI(1);
    const opened = await api.openRepository(vscode.Uri.file(repo));
    assert.ok(opened, 'Git opened the repository');
    const deadline = Date.now() + 30_000;
    while (opened.state.workingTreeChanges.length + (opened.state.untrackedChanges?.length ?? 0) < 2) {
      if (Date.now() > deadline) throw new Error('Git did not report the two changes in 30 s');
      await opened.status();
      await new Promise((r) => setTimeout(r, 200));
    }
    const agent = scenarioAgent('Git Agent', {
      agentCapabilities: { mcpCapabilities: { http: true }, promptCapabilities: { embeddedContext: true } },
      turns: [
        {
          match: 'what changed',
          steps: [
            { mcpCall: { tool: 'changes' } },
            { mcpCall: { tool: 'changes', arguments: { path: 'git-fixture/total.ts' } } },
            { text: 'looked' },
          ],
        },
        { match: 'report prompt', steps: [{ reportPrompt: true }] },
      ],
    });
    const chat = await chatWithAgents({ git: agent }, 'git');
    try {
      await chat.composer.send('what changed');
      await waitFor(chat, 'the turn', () => chat.thread.turn === 'idle' && transcript(chat).includes('looked'), 60_000);
      const text = transcript(chat);
      assert.match(
        text,
        /\[mcp changes: (?=[^\]]*modified: git-fixture\/total\.ts)(?=[^\]]*untracked: git-fixture\/added\.ts)/,
      );
      assert.match(text, /\[mcp changes: [^\]]*-export const total = 1;\n\+export const total = 2;/);
      const listed = chat.thread.entries.find((e) => e.kind === 'editorCalls');
      assert.ok(listed?.kind === 'editorCalls');
      assert.deepEqual(
        listed.calls.map((c) => c.about),
        ['changes: 2 files', 'changes in git-fixture/total.ts'],
      );
      // @changes: the same, as text in the prompt.
      const mentions = new Mentions();
      const offered = (await mentions.search('chang')).find((m) => m.label === 'Changes against HEAD');
      assert.ok(offered);
      assert.ok(mentions.attach(chat.composer.attachments, offered.id));
      await waitFor(chat, 'read', () => chat.status.attachments.every((a) => a.state === 'ready'));
      await chat.composer.send('report prompt');
      // What @changes sends: the files, then the diff (the agent reports a long text by its length and start).
      const folders = vscode.workspace.workspaceFolders!.map((f) => f.uri.toString());
      const expected = await workingTreeChanges(new VscodeEditor(), folders);
      assert.match(expected, /^modified: git-fixture\/total\.ts\nuntracked: git-fixture\/added\.ts\n\n/);
      assert.match(expected, /-export const total = 1;\n\+export const total = 2;/);
      const [, sent] = reportedBlocks(lastReply(chat));
      assert.deepEqual(sent, {
        type: 'resource',
        uri: `${folders[0]}#changes`,
        mimeType: 'text/plain',
        chars: expected.length,
        start: expected.slice(0, 40),
      });
    } finally {
      await vscode.commands.executeCommand('vscode-acp.disconnect');
    }
  });
});
