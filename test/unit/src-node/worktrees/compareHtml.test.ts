/**
 * The compare view's page (src-node/worktrees/compareHtml.ts): each agent's card says its state, files and line
 * counts and task; its links run only the view's commands, with their arguments; nothing an agent named becomes
 * markup, and the page runs no script.
 */
import * as assert from 'node:assert/strict';
import { COMPARE_COMMANDS, compareHtml, esc, type ComparedAgent } from '../../../../src-node/worktrees/compareHtml';

const agent = (over: Partial<ComparedAgent>): ComparedAgent => ({
  id: 'w1',
  agent: 'Claude Code',
  worktree: 'detached at 1234567',
  state: 'finished',
  files: [],
  ...over,
});

describe('the compare view page', () => {
  it('says each agent’s state, files with their lines, totals and its task’s outcome', () => {
    const html = compareHtml(
      't1',
      'Task: fix the parser',
      [
        agent({
          files: [
            { label: 'src/a.ts', kind: 'edited', added: 3, removed: 1 },
            { label: 'src/b.ts', kind: 'created', added: 10, removed: 0 },
          ],
          task: { name: 'npm test', state: 'failed', code: 2 },
        }),
        agent({
          id: 'w2',
          agent: 'Codex',
          state: 'working',
          task: { name: 'npm test', state: 'passed' },
        }),
      ],
      'vscode-resource:',
    );
    assert.match(html, /2 files <span class="added">\+13<\/span> <span class="removed">-1<\/span>/);
    assert.match(html, /npm test: <span class="failedTask">failed \(exit 2\)<\/span>/);
    assert.match(html, /Codex<\/h2>[\s\S]*working[\s\S]*no files changed[\s\S]*npm test: <span class="passed">passed/);
    const apply = `command:vscode-acp.compareApply?${encodeURIComponent(JSON.stringify(['t1', 'w2']))}`;
    assert.ok(html.includes(`href="${apply}"`), 'Apply names its task and worktree');
  });

  it('escapes what agents named, links only the view’s commands, and runs no script', () => {
    const hostile = '<img src=x onerror=alert(1)>"\'&';
    const html = compareHtml(
      't1',
      `Task: ${hostile}`,
      [agent({ agent: hostile, files: [{ label: `${hostile}.ts`, kind: 'edited', added: 1, removed: 1 }] })],
      'vscode-resource:',
    );
    assert.ok(!html.includes('<img'), 'no markup from an agent');
    assert.ok(!/<script/i.test(html), 'no script');
    assert.match(html, /default-src 'none'/);
    const commands = [...html.matchAll(/href="command:([^?"]+)\?/g)].map((m) => m[1]);
    assert.ok(commands.length > 0);
    for (const command of commands) assert.ok((COMPARE_COMMANDS as readonly string[]).includes(command!), command);
    // The file's name goes into the link as JSON, percent-encoded: it cannot end the attribute.
    assert.ok(html.includes(esc(encodeURIComponent(JSON.stringify(['t1', `${hostile}.ts`])))));
  });
});
