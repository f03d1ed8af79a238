import * as assert from 'node:assert/strict';
import { isInside } from '../../../../src-node/paths/pathInside';

describe('isInside (links the agent sends, executables, terminal folders)', () => {
  const root = '/work/project';
  const cases: Array<[string, boolean]> = [
    ['/work/project', true],
    ['/work/project/', true],
    ['/work/project/a.ts', true],
    ['/work/project/src/deep/a.ts', true],
    // A name that only starts with dots is a name, not a step up.
    ['/work/project/..hidden', true],
    ['/work/project/...', true],
    ['/work/project/a/../b.ts', true],
    ['/work', false],
    ['/', false],
    ['/work/project/..', false],
    ['/work/project/../other/a.ts', false],
    ['/work/project/a/../../other', false],
    // A sibling whose name starts like the root's.
    ['/work/project-evil/a.ts', false],
    ['/work/projectx', false],
    ['/etc/passwd', false],
  ];
  for (const [child, inside] of cases) {
    it(`${child}: ${inside ? 'inside' : 'outside'}`, () => assert.equal(isInside(root, child), inside));
  }
});
