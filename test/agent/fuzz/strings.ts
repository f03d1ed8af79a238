// What the fuzzer puts into strings: chosen by the property they fill, and
// mostly hostile (markup, links, paths out of the workspace, odd Unicode).
import type { Random } from './random';
import type { StringFor } from './schemaValues';

/** The one command a fuzzed terminal/create may ask for: it does not exist, so nothing runs. */
export const FUZZ_COMMAND = 'fuzz-no-such-command';

const TEXT = [
  'plain words',
  '',
  '# Title\n\n**bold** _it_ `code` ~~gone~~\n\n- a\n  - b\n    - c',
  '[click](javascript:alert(1)) [cmd](command:workbench.action.terminal.new) [file](file:///etc/passwd)',
  '![img](https://evil.example/pixel.png) <img src=x onerror=alert(1)>',
  '<script>alert(1)</script><iframe src="https://evil.example"></iframe><style>*{display:none}</style>',
  '<a href="javascript:alert(1)" onclick="alert(2)">link</a></div></acp-chat-app>',
  '```js\nunclosed fence\n',
  '> > > > > > > > > > > > > > > > deep quote',
  '| a | b |\n|---|---|\n| <b>x</b> | [y](data:text/html,<script>alert(1)</script>) |',
  '\u202Eevil\u202C \u200B\u200D\uFEFF zero width',
  'nul\u0000byte and bell\u0007 and escape \u001b[31mred\u001b[0m',
  'lone surrogate \uD800 here \uDFFF',
  '👩‍👩‍👧‍👦 ✨ 𝕏 漢字 العربية',
  '&lt;&#x3C;&amp;&quot; &#0; &#xD800;',
  '${cwd} ${sessionId} {{constructor}} __proto__',
  'line\r\nwith\rcarriage\u2028returns\u2029',
  '$$\\frac{1}{0}$$ \\(x\\)',
];

const PATHS = [
  '${cwd}/fuzz-out/a.txt',
  '${cwd}/fuzz-out/deep/er/b.md',
  '${cwd}/../outside.txt',
  // Outside the workspace: the test checks that ../fuzz-outside stays empty (no system paths:
  // a bug must not be able to write over them).
  '${cwd}/fuzz-out/../../fuzz-outside/escaped.txt',
  '${cwd}/../fuzz-outside/escaped-too.txt',
  'relative/path.txt',
  '',
  '~/.ssh/id_rsa',
  'file:///etc/passwd',
  'C:\\Windows\\win.ini',
  '\\\\server\\share\\x',
  '${cwd}/fuzz-out/nul\u0000byte',
  '${cwd}/fuzz-out/' + 'x'.repeat(300),
];

const URIS = [
  'file:///etc/passwd',
  'javascript:alert(1)',
  'command:workbench.action.reloadWindow',
  'https://evil.example/a',
  'data:text/html,<script>alert(1)</script>',
  'vscode://vscode-acp.vscode-acp/x',
  '${cwd}/fuzz-out/a.txt',
  'not a uri',
];

const IDS = ['t1', 't2', 't3', 'term-1', '', '__proto__', 'constructor'];

function word(random: Random): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-_ ';
  return Array.from({ length: 1 + random.int(12) }, () => random.pick(letters.split(''))).join('');
}

/** Makes the fuzzer's StringFor for one session. */
export function fuzzStrings(vars: { sessionId: string; cwd: string }): StringFor {
  const fill = (text: string) => text.replaceAll('${cwd}', vars.cwd).replaceAll('${sessionId}', vars.sessionId);
  return (key, random) => {
    // Rarely: a long one (a 256 KiB line, a 64 KiB word).
    if (random.chance(0.004)) return random.pick(['z', 'ab ', '# x\n']).repeat(65_536);
    switch (key) {
      case 'sessionId':
        return random.chance(0.9) ? vars.sessionId : random.pick(['sess-unknown', '', word(random)]);
      case 'command':
        return FUZZ_COMMAND;
      case 'path':
      case 'cwd':
        return fill(random.pick(PATHS));
      case 'uri':
        return fill(random.pick(URIS));
      case 'toolCallId':
      case 'terminalId':
      case 'optionId':
      case 'modeId':
      case 'configId':
      case 'id':
        return random.chance(0.7) ? random.pick(IDS) : word(random);
      case 'mimeType':
        return random.pick(['image/png', 'image/svg+xml', 'text/html', 'text/plain', '../../x', '']);
      case 'data':
      case 'blob':
        return random.pick(['iVBORw0KGgo=', '', '!!!not base64!!!', 'PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+']);
      default:
        return random.chance(0.7) ? fill(random.pick(TEXT)) : word(random);
    }
  };
}
