import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveExecutable } from '../../../../src-node/agents/resolveExecutable';

describe('resolveExecutable (real files)', () => {
  let dir: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-resolve-')));
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'agent'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'bin', 'notexec'), 'x', { mode: 0o644 });
    fs.mkdirSync(path.join(dir, 'bin', 'adir'));
    fs.symlinkSync(path.join(dir, 'bin', 'agent'), path.join(dir, 'bin', 'link'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const env = () => ({ PATH: ['relative/bin', path.join(dir, 'bin')].join(path.delimiter) });

  it('finds a bare name on the absolute PATH entries', async () => {
    assert.equal(await resolveExecutable('agent', env()), path.join(dir, 'bin', 'agent'));
  });

  it('canonicalises symlinks', async () => {
    assert.equal(await resolveExecutable('link', env()), path.join(dir, 'bin', 'agent'));
  });

  it('skips relative PATH entries', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      assert.equal(await resolveExecutable('agent', { PATH: 'bin' }), undefined);
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses non-executables, folders, relative paths and NUL bytes', async () => {
    assert.equal(await resolveExecutable('notexec', env()), undefined);
    assert.equal(await resolveExecutable('adir', env()), undefined);
    assert.equal(await resolveExecutable('./bin/agent', env()), undefined);
    assert.equal(await resolveExecutable('bin/agent', env()), undefined);
    assert.equal(await resolveExecutable('agent\0x', env()), undefined);
    assert.equal(await resolveExecutable('missing', env()), undefined);
  });

  it('accepts an absolute path to an executable', async () => {
    assert.equal(await resolveExecutable(path.join(dir, 'bin', 'agent'), { PATH: '' }), path.join(dir, 'bin', 'agent'));
  });
});

describe('resolveExecutable in an untrusted workspace', () => {
  it('skips PATH entries inside the workspace folders, also through a symlink', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-untrusted-')));
    try {
      const workspace = path.join(dir, 'ws');
      fs.mkdirSync(path.join(workspace, 'node_modules', '.bin'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'system'));
      fs.writeFileSync(path.join(workspace, 'node_modules', '.bin', 'agent'), '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(dir, 'system', 'agent'), '#!/bin/sh\n', { mode: 0o755 });
      fs.symlinkSync(path.join(workspace, 'node_modules', '.bin'), path.join(dir, 'sneaky'));
      const env = {
        PATH: [path.join(workspace, 'node_modules', '.bin'), path.join(dir, 'sneaky'), path.join(dir, 'system')].join(
          path.delimiter,
        ),
      };
      assert.equal(await resolveExecutable('agent', env), path.join(workspace, 'node_modules', '.bin', 'agent'));
      assert.equal(
        await resolveExecutable('agent', env, { skipInside: [workspace] }),
        path.join(dir, 'system', 'agent'),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
