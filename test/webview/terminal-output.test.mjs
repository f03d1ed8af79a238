/** <acp-terminal-output>: shell output with its ANSI colours, never as HTML. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const ESC = '\x1b';
const OUTPUT = [
  `${ESC}]0;window title${ESC}\\`,
  `${ESC}[31mred${ESC}[0m plain ${ESC}[1;32mbold green${ESC}[0m`,
  ` ${ESC}[38;5;208morange${ESC}[0m ${ESC}[38;2;10;200;30mtrue${ESC}[39m ${ESC}[30;47mblack on white${ESC}[0m`,
  `\n${ESC}[4munder${ESC}[24m ${ESC}[?25l<b>not bold</b>${ESC}[2K\n`,
  'progress 10%\rprogress 50%\rprogress 100%\n',
].join('');

const terminalEntry = (extra = {}) => ({
  kind: 'tool',
  id: 'term',
  toolCallId: 'c1',
  title: 'npm test',
  toolKind: 'execute',
  status: 'completed',
  locations: [],
  input: 'npm test',
  content: [{ type: 'terminal', terminalId: 't1', output: OUTPUT, exitCode: 1, ...extra }],
});

/** The colour an element's text is painted in, as [r, g, b] (resolves oklch() and variables). */
function paintedColour(locator) {
  return locator.evaluate((el) => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.fillStyle = getComputedStyle(el).color;
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  });
}

function luminance([r, g, b]) {
  const lin = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const contrast = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

describe('<acp-terminal-output>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  async function showTerminal(extra) {
    await chat.setEntries([terminalEntry(extra)]);
    const head = chat.page.locator('acp-tool-card button.head');
    if ((await head.getAttribute('aria-expanded')) === 'false') await head.click();
    return chat.page.locator('acp-terminal-output');
  }

  it('renders ANSI colours as styled spans and no escape codes as text', async () => {
    const term = await showTerminal();
    const text = await term.locator('pre').textContent();
    assert.equal(text, 'red plain bold green orange true black on white\nunder <b>not bold</b>\nprogress 100%\n');
    assert.doesNotMatch(text, /\x1b|\[31m|window title|\r/);
    assert.equal(await term.locator('pre b').count(), 0, 'markup in output is text');

    const span = (t) => term.locator('pre span', { hasText: new RegExp(`^${t}$`) });
    assert.equal(await span('red').getAttribute('class'), 'fg-red');
    assert.equal(await span('bold green').getAttribute('class'), 'fg-green bold');
    assert.equal(await span('bold green').evaluate((e) => getComputedStyle(e).fontWeight), '700');
    assert.equal(await span('under').getAttribute('class'), 'underline');
    assert.equal(await span('black on white').getAttribute('class'), 'fg-black bg-white has-bg');
    // 256-colour and 24-bit colours are set through CSSOM, never a style attribute (the CSP refuses those).
    assert.deepEqual(await paintedColour(span('orange')), [255, 135, 0]);
    assert.deepEqual(await paintedColour(span('true')), [10, 200, 30]);
    assert.equal(await term.locator('pre [style]').count(), 2);
    assert.deepEqual(await chat.violations(), []);
  });

  it("takes the 16 colours from the theme's terminal variables, kept readable", async () => {
    const term = await showTerminal();
    const red = term.locator('pre span.fg-red');
    await chat.page.evaluate(() =>
      document.documentElement.style.setProperty('--vscode-terminal-ansiRed', 'rgb(250, 160, 160)'),
    );
    assert.deepEqual(await paintedColour(red), [250, 160, 160], 'a readable theme colour is used as is');
    await chat.page.evaluate(() =>
      document.documentElement.style.setProperty('--vscode-terminal-ansiRed', 'rgb(120, 0, 0)'),
    );
    const lifted = await paintedColour(red);
    const background = await term
      .locator('pre')
      .evaluate((e) => getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
    assert.ok(lifted[0] > lifted[1] && lifted[0] > lifted[2], `still red: ${lifted}`);
    assert.ok(contrast(lifted, background) >= 4.5, `dark red is lifted to contrast ${contrast(lifted, background)}`);
    // On a light theme, light colours are darkened instead.
    await chat.setTheme('light');
    await chat.page.evaluate(() =>
      document.documentElement.style.setProperty('--vscode-terminal-ansiRed', 'rgb(255, 170, 170)'),
    );
    const darkened = await paintedColour(red);
    const lightBackground = await term
      .locator('pre')
      .evaluate((e) => getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
    assert.ok(darkened[0] > darkened[1], `still red: ${darkened}`);
    assert.ok(
      contrast(darkened, lightBackground) >= 4.5,
      `light red is darkened to contrast ${contrast(darkened, lightBackground)}`,
    );
    // Black on a white background keeps both: that pair is readable by itself.
    const black = await paintedColour(term.locator('pre span.fg-black'));
    assert.ok(luminance(black) < 0.05, `black stays black: ${black}`);
  });

  it('shows how the command ended', async () => {
    let term = await showTerminal();
    assert.equal((await term.locator('.end').textContent()).trim(), 'Exit code 1');
    assert.equal(await term.locator('.end.failed .codicon-error').count(), 1);
    term = await showTerminal({ exitCode: null, signal: 'SIGTERM' });
    assert.equal((await term.locator('.end').textContent()).trim(), 'Ended by signal SIGTERM');
    term = await showTerminal({ exitCode: undefined });
    assert.equal(await term.locator('.end').count(), 0, 'still running: no end line');
  });

  it('streams: a longer output replaces the shown one', async () => {
    await showTerminal({ output: 'line 1\n', exitCode: undefined });
    await chat.apply({
      type: 'entries',
      length: 1,
      ops: [
        { op: 'set', index: 0, entry: terminalEntry({ output: `line 1\n${ESC}[33mline 2${ESC}[0m\n`, exitCode: 0 }) },
      ],
    });
    const term = chat.page.locator('acp-terminal-output');
    assert.equal(await term.locator('pre').textContent(), 'line 1\nline 2\n');
    assert.equal(await term.locator('pre span.fg-yellow').textContent(), 'line 2');
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await showTerminal();
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
