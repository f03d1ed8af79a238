/**
 * An edit the agent asks about without its old text (issue 46, item 2): shown against the file as it is now, or said
 * unknown, never as a new file when the file is there (shared/oldTexts.ts).
 */
import * as assert from 'node:assert/strict';
import { filesNow, MAX_FILES_NOW, pathsWithoutOldText, withFilesNow } from '../../../../../src/shared/thread/oldTexts';
import type { ToolEntry } from '../../../../../src/shared/thread/thread';
import { MAX_DIFF_CHARS } from '../../../../../src/shared/thread/toolCalls';

const edit = (content: ToolEntry['content']): ToolEntry => ({
  kind: 'tool',
  id: 't',
  toolCallId: 'c',
  title: 'Write',
  toolKind: 'edit',
  status: 'pending',
  content,
  locations: [],
});
const diff = (path: string, oldText: string | null, newText = 'new\n') => ({
  type: 'diff' as const,
  path,
  oldText,
  newText,
});

describe('edits without their old text (oldTexts)', () => {
  it('asks only for the diffs that came without old text, each path once, at most MAX_FILES_NOW', () => {
    const tool = edit([diff('/w/a', null), diff('/w/a', null), diff('/w/b', 'old\n'), diff('/w/c', null)]);
    assert.deepEqual(pathsWithoutOldText(tool), ['/w/a', '/w/c']);
    const many = edit(Array.from({ length: 50 }, (_, i) => diff(`/w/f${i}`, null)));
    assert.equal(pathsWithoutOldText(many).length, MAX_FILES_NOW);
  });

  it('diffs against the file as it is now, says unknown where it could not be read, and keeps a new file new', () => {
    const tool = edit([diff('/w/there', null), diff('/w/unread', null), diff('/w/new', null), diff('/w/kept', 'k\n')]);
    const now = new Map([
      ['/w/there', 'old\n'],
      ['/w/unread', undefined],
      ['/w/new', null],
    ]);
    assert.deepEqual(withFilesNow(tool, now).content, [
      { ...diff('/w/there', 'old\n'), oldFrom: 'disk' },
      { ...diff('/w/unread', null), oldFrom: 'unknown' },
      diff('/w/new', null),
      diff('/w/kept', 'k\n'),
    ]);
    assert.equal(withFilesNow(tool, new Map([['/w/new', null]])), tool, 'the same entry when nothing changes');
  });

  it('keeps the diff bound: a file too large to diff is said so, with its line counts', () => {
    const big = 'x\n'.repeat(MAX_DIFF_CHARS);
    const [content] = withFilesNow(edit([diff('/w/big', null)]), new Map([['/w/big', big]])).content;
    assert.deepEqual(content, {
      type: 'diff',
      path: '/w/big',
      oldText: '',
      newText: '',
      tooLarge: { oldLines: MAX_DIFF_CHARS, newLines: 1 },
      oldFrom: 'disk',
    });
  });

  it('takes a read that throws as unknown', async () => {
    const now = await filesNow(['/w/a', '/outside'], async (path) => {
      if (path === '/outside') throw new Error('outside the workspace');
      return 'a\n';
    });
    assert.deepEqual(
      [...now],
      [
        ['/w/a', 'a\n'],
        ['/outside', undefined],
      ],
    );
  });
});
