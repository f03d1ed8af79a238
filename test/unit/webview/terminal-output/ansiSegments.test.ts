/** Terminal output's ANSI escapes as styled segments: read in one pass, never as HTML. */
import * as assert from 'node:assert/strict';
import { ansiSegments } from '../../../../webview/terminal-output/ansi-segments';

const ESC = '\x1b';

describe('terminal output: ANSI escapes as styled segments', () => {
  it('reads colours, bright colours, the 256-colour palette and 24-bit colours', () => {
    assert.deepEqual(ansiSegments(`${ESC}[31mred${ESC}[0m plain ${ESC}[1;92mbold${ESC}[0m${ESC}[104mbg${ESC}[49m`), [
      { text: 'red', classes: 'fg-red' },
      { text: ' plain ', classes: '' },
      { text: 'bold', classes: 'fg-bright-green bold' },
      { text: 'bg', classes: 'bg-bright-blue' },
    ]);
    assert.deepEqual(ansiSegments(`${ESC}[38;5;208mo${ESC}[38;5;9mr${ESC}[48;2;10;200;30mt${ESC}[39;49mx`), [
      { text: 'o', classes: '', color: 'rgb(255, 135, 0)' },
      { text: 'r', classes: 'fg-bright-red' },
      { text: 't', classes: 'fg-bright-red', background: 'rgb(10, 200, 30)' },
      { text: 'x', classes: '' },
    ]);
  });

  it('keeps each decoration once however often it is asked for, and ends it', () => {
    assert.deepEqual(ansiSegments(`${ESC}[1m${ESC}[1;1;4ma${ESC}[22mb${ESC}[24mc`), [
      { text: 'a', classes: 'bold underline' },
      { text: 'b', classes: 'underline' },
      { text: 'c', classes: '' },
    ]);
    assert.deepEqual(ansiSegments(`${ESC}[2;3;9;8md${ESC}[mn`), [
      { text: 'd', classes: 'dim italic strikethrough hidden' },
      { text: 'n', classes: '' },
    ]);
  });

  it('reverses the colours, white on black when none is set', () => {
    assert.deepEqual(ansiSegments(`${ESC}[7mr${ESC}[31mR${ESC}[27mx`), [
      { text: 'r', classes: 'fg-black bg-white' },
      { text: 'R', classes: 'fg-black bg-red' },
      { text: 'x', classes: 'fg-red' },
    ]);
  });

  it('drops other control sequences, operating system commands and control characters; keeps what a bar ends on', () => {
    assert.deepEqual(ansiSegments(`${ESC}]0;title${ESC}\\${ESC}[?25l<b>${ESC}[2K${ESC}[31m\x07x${ESC}M`), [
      { text: '<b>', classes: '' },
      { text: 'x', classes: 'fg-red' },
    ]);
    assert.deepEqual(ansiSegments(`${ESC}[32m10%\r50%\r100%\ndone`), [{ text: '100%\ndone', classes: 'fg-green' }]);
    assert.deepEqual(ansiSegments(`${ESC}[${'0'.repeat(10)}`), [{ text: '0000000000', classes: '' }]);
  });
});
