/** `@problems` and `@changes`: the editor server's answers about the whole workspace, as a prompt's context. */
import * as assert from 'node:assert/strict';
import { fixtureEditor } from './fixtureEditor';
import { workingTreeChanges, workspaceProblems } from '../../../../src/editorServer/editorContext';

const ROOT = 'file:///work/app';

describe('The editor as context (@problems, @changes)', () => {
  it("gives the workspace's problems errors first, and none outside its folders", async () => {
    const text = await workspaceProblems(fixtureEditor(ROOT), [ROOT]);
    assert.match(text, /^2 problems in the workspace \(1 error\):\nsrc\/a\.ts:3:7: error 2322/);
    assert.doesNotMatch(text, /outside|etc/);
  });

  it('lists the changed files, then their diffs while they fit, and says how many diffs are left out', async () => {
    const files = Array.from({ length: 60 }, (_, i) => ({ uri: `${ROOT}/f${i}.ts`, status: 'modified' }));
    const asked: string[] = [];
    const editor = fixtureEditor(ROOT, {
      changes: async () => [...files, { uri: 'file:///elsewhere/x.ts', status: 'modified' }],
      diff: async (uri) => {
        asked.push(uri);
        return `--- a/${uri.slice(ROOT.length + 1)}\n+++ b\n${'+x\n'.repeat(uri.endsWith('/f3.ts') ? 20_000 : 2)}`;
      },
    });
    const text = await workingTreeChanges(editor, [ROOT]);
    assert.match(text, /^modified: f0\.ts\nmodified: f1\.ts\n/);
    assert.match(text, /\n\n--- a\/f0\.ts\n\+\+\+ b\n\+x\n\+x\n\n--- a\/f1\.ts/);
    // f3's diff (60,000 characters) does not fit: the diffs stop there, and the rest are counted.
    assert.doesNotMatch(text, /--- a\/f3\.ts/);
    assert.match(text, /\(the diffs of 57 more files are not included\)$/);
    assert.ok(text.length <= 40_000 + 100, `${text.length}`);
    assert.ok(!asked.some((u) => u.includes('elsewhere')), 'nothing outside the folders is asked');
  });

  it('says when there is no Git', async () => {
    const text = await workingTreeChanges(fixtureEditor(ROOT, { changes: async () => undefined }), [ROOT]);
    assert.match(text, /^Git is not available here/);
  });
});
