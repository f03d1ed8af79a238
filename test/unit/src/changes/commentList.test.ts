/**
 * Review comments (src/changes/commentList.ts): a sent comment is addressed when a later turn of the agent changes
 * the lines it was on (or deletes the file); one on lines the turn left alone, or not sent yet, stays as it was.
 */
import * as assert from 'node:assert/strict';
import { CommentList } from '../../../../src/changes/commentList';
import type { FileChange } from '../../../../src/shared/changes';

describe('review comments', () => {
  const on = (path: string, lines: string, text: string) => ({ path, startLine: 1, endLine: 1, lines, text });
  const change = (path: string, hash?: string): FileChange => ({
    path,
    before: { size: 1, hash: 'a' },
    ...(hash ? { after: { size: 1, hash } } : {}),
  });

  it('is addressed when the agent changes its lines after it was sent, and only then', async () => {
    let changed = 0;
    const list = new CommentList(() => changed++);
    const sent = list.add(on('/w/a.ts', 'const x = 1;', 'use a better name'))!;
    const untouched = list.add(on('/w/a.ts', 'return x;', 'fine, but check'))!;
    const notSent = list.add(on('/w/a.ts', 'const x = 1;', 'not sent'))!;
    const gone = list.add(on('/w/b.ts', 'b', 'why this file?'))!;
    for (const c of [sent, untouched, gone]) list.set(c.id, 'sent');
    // The commented line is gone, though its text is part of another one now.
    const texts: Record<string, string> = { new: 'const total = 1;\nconst x = 1; // kept\nreturn x;\n' };
    await list.turnEnded([change('/w/a.ts', 'new'), change('/w/b.ts')], async (c) =>
      c.after ? texts[c.after.hash!] : '',
    );
    const states = Object.fromEntries(list.all.map((c) => [c.text, c.state]));
    assert.deepEqual(states, {
      'use a better name': 'addressed',
      'fine, but check': 'sent',
      'not sent': 'open',
      'why this file?': 'addressed',
    });
    assert.ok(changed > 0, 'the chat hears of it (saved, shown)');
    list.set(untouched.id, 'resolved');
    list.remove(notSent.id);
    assert.deepEqual(
      list.all.map((c) => c.state),
      ['addressed', 'resolved', 'addressed'],
    );
  });

  it('a saved comment that was in a prompt not sent then is open again (that prompt is not kept)', () => {
    const list = new CommentList(() => undefined);
    const c = { ...on('/w/a.ts', 'x', 'why?'), id: 'c1' };
    list.load([
      { ...c, state: 'attached' },
      { ...c, id: 'c2', state: 'sent' },
    ]);
    assert.deepEqual(
      list.all.map((x) => x.state),
      ['open', 'sent'],
    );
  });

  it('a file whose new text is not readable as text leaves its comments as they are', async () => {
    const list = new CommentList(() => undefined);
    const c = list.add(on('/w/big.bin', 'x', 'hm'))!;
    list.set(c.id, 'sent');
    await list.turnEnded([change('/w/big.bin', 'huge')], async () => undefined);
    assert.equal(list.all[0]!.state, 'sent');
  });
});
