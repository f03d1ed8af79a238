/**
 * decodeWindowsShim on fixture files (test/fixtures/windows-shims, some
 * written by the real cmd-shim): npm's shims read back into interpreter,
 * arguments and script; anything else, and every injection, undefined.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeWindowsShim } from '../../../../src-node/agents/windowsShim';

const fixtures = path.resolve(__dirname, '../../test/fixtures/windows-shims');
const read = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');
const BIN = 'C:\\work\\app\\node_modules\\.bin';
const NPM = 'C:\\Users\\Dev\\AppData\\Roaming\\npm';

describe('windowsShim: decodeWindowsShim', () => {
  it('decodes the current npm shim (written by cmd-shim 8)', () => {
    const text = read('npm-goto-start-tsc.cmd');
    assert.ok(text.includes('\r\n'), 'the fixture keeps its CRLF line ends');
    assert.deepEqual(decodeWindowsShim(text, `${BIN}\\tsc.cmd`), {
      interpreter: 'node',
      localInterpreter: `${BIN}\\node.exe`,
      args: [],
      script: 'C:\\work\\app\\node_modules\\typescript\\bin\\tsc',
      format: 'goto-start',
    });
  });

  it('decodes the interpreter arguments of a #! line', () => {
    const shim = decodeWindowsShim(read('npm-goto-start-shebang-args.cmd'), `${BIN}\\scoped-cli.cmd`);
    assert.deepEqual(shim?.args, ['--max-old-space-size=4096', '--no-warnings']);
    assert.equal(shim?.script, 'C:\\work\\app\\node_modules\\@scope\\cli\\dist\\cli.js');
  });

  it('decodes the older shapes', () => {
    const cases: Array<[string, string, string]> = [
      ['npm6-if-exist-rimraf.cmd', 'if-exist', 'C:\\work\\app\\node_modules\\rimraf\\bin.js'],
      ['npm6-find-dp0-at-end.cmd', 'find-dp0-at-end', 'C:\\work\\app\\node_modules\\tslint\\bin\\tslint'],
      ['npm-setlocal-eslint.cmd', 'setlocal', 'C:\\work\\app\\node_modules\\eslint\\bin\\eslint.js'],
    ];
    for (const [file, format, script] of cases) {
      const shim = decodeWindowsShim(read(file), `${BIN}\\x.cmd`);
      assert.deepEqual([shim?.format, shim?.interpreter, shim?.script, shim?.args], [format, 'node', script, []], file);
    }
  });

  it('decodes the newest shape (PATHEXT after endLocal), global install folder', () => {
    const shim = decodeWindowsShim(read('npm-pathext-after-endlocal-codex.cmd'), `${NPM}\\codex.cmd`);
    assert.equal(shim?.format, 'pathext-after-endlocal');
    assert.equal(shim?.script, `${NPM}\\node_modules\\@openai\\codex\\bin\\codex.js`);
    assert.equal(shim?.localInterpreter, `${NPM}\\node.exe`);
  });

  it('decodes a shim saved as .bat, with LF line ends, and on a UNC path', () => {
    const text = read('copied-shim.bat');
    assert.equal(
      decodeWindowsShim(text, `${BIN}\\tsc.bat`)?.script,
      'C:\\work\\app\\node_modules\\typescript\\bin\\tsc',
    );
    assert.ok(decodeWindowsShim(text.replace(/\r\n/g, '\n'), `${BIN}\\tsc.cmd`));
    assert.equal(
      decodeWindowsShim(text, '\\\\server\\share\\app\\node_modules\\.bin\\tsc.cmd')?.script,
      '\\\\server\\share\\app\\node_modules\\typescript\\bin\\tsc',
    );
  });

  it('refuses every injection into an otherwise exact shim', () => {
    for (const file of fs.readdirSync(fixtures).filter((f) => f.startsWith('hostile-'))) {
      assert.equal(decodeWindowsShim(read(file), `${BIN}\\tsc.cmd`), undefined, file);
    }
  });

  it("refuses what is not one of npm's shims: pnpm, a build script, variables, a direct program", () => {
    for (const file of [
      'pnpm-shim-tsc.cmd',
      'not-a-shim-build.bat',
      'npm-goto-start-env-vars.cmd',
      'npm-no-shebang-exe.cmd',
    ]) {
      assert.equal(decodeWindowsShim(read(file), `${BIN}\\x.cmd`), undefined, file);
    }
  });

  it('refuses edits a generator never makes', () => {
    const text = read('npm-goto-start-tsc.cmd');
    const edits: Array<[string, string]> = [
      [text.replace('\r\n', '\n'), 'mixed line ends'],
      [text.replace('@ECHO off', '\uFEFF@ECHO off'), 'a byte order mark'],
      [`${text}\r\n`, 'an extra blank line'],
      [text.replace('"%_prog%"  ', '"%_prog%" --x&y '), 'an argument with &'],
      [text.replace('..\\typescript', '..\\\\typescript'), 'an empty path step'],
      [text.replace('..\\typescript', 'C:\\typescript'), 'an absolute script'],
      [text.replace('..\\typescript', '..\\typ"escript'), 'a quote in the script'],
      [text.replace('..\\typescript', '..\\typescript !x!'), 'delayed expansion'],
      [text.replace(/node/g, 'no de'), 'a program with a space'],
      [text.replace('SET "_prog=node"', 'SET "_prog=bun"'), 'two different programs'],
      [text.replace('%*', '%1'), 'only the first argument'],
    ];
    for (const [edited, why] of edits) assert.equal(decodeWindowsShim(edited, `${BIN}\\tsc.cmd`), undefined, why);
  });

  it('refuses a shim path that is not an absolute Windows path to a .cmd or .bat', () => {
    const text = read('npm-goto-start-tsc.cmd');
    for (const shimPath of [
      'tsc.cmd',
      '\\node_modules\\.bin\\tsc.cmd',
      '/usr/lib/node_modules/.bin/tsc.cmd',
      `${BIN}\\tsc.ps1`,
      `${BIN}\\tsc`,
      'C:tsc.cmd',
    ]) {
      assert.equal(decodeWindowsShim(text, shimPath), undefined, shimPath);
    }
  });
});
