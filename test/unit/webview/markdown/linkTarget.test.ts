import * as assert from 'node:assert/strict';
import { decodeEntities } from '../../../../webview/markdown/entities';
import { safeLinkTarget } from '../../../../webview/markdown/linkTarget';

describe('which agent Markdown links may be clicked (safeLinkTarget)', () => {
  const allowed: Array<[string, string]> = [
    ['https://example.com/a?b#c', 'https://example.com/a?b#c'],
    ['HTTP://Example.com', 'http://example.com/'],
    ['  https://example.com  ', 'https://example.com/'],
    ['file:///etc/hosts', 'file:///etc/hosts'],
    ['file://localhost/tmp/a.txt', 'file:///tmp/a.txt'],
    // The URL parser reads the first path segment as the host; the host asks before opening a web page.
    ['http:///path', 'http://path/'],
    // Controls and spaces at the ends are what a browser strips too.
    ['https://example.com/\u0000', 'https://example.com/'],
    ['/home/me/project/a.ts', '/home/me/project/a.ts'],
    ['src/a.ts', 'src/a.ts'],
    ['./a.ts#L3', './a.ts#L3'],
    ['../up.md', '../up.md'],
    ['C:\\work\\a.ts', 'C:\\work\\a.ts'],
    ['c:/work/a.ts', 'c:/work/a.ts'],
    ['README.md', 'README.md'],
    ['README.md   ', 'README.md'],
    ['src//a.ts', 'src//a.ts'],
    ['https://exa\tmple.com/', 'https://example.com/'],
    ['a/b:c', 'a/b:c'],
  ];
  const refused = [
    '',
    '   ',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    ' javascript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u001fjavascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'command:workbench.action.reloadWindow',
    'vscode://file/etc/passwd',
    'file://evil.example/share/x',
    'http://',
    'https://',
    'mailto:a@example.com',
    'ftp://example.com/',
    '//evil.example/x',
    '\\\\evil.example\\share',
    '/\\evil.example',
    '\\/evil.example',
    '#top',
    '?q=1',
    'ｊavascript:alert(1)',
    'javascript%3Aalert(1):x',
    'a:b',
    'x'.repeat(8_193),
    'https://exa\u0000mple.com/',
    'src/a\u0007.ts',
    'src/a\u007f.ts',
  ];

  for (const [given, target] of allowed) {
    it(`allows ${JSON.stringify(given)}`, () => assert.equal(safeLinkTarget(given), target));
  }
  for (const given of refused) {
    it(`refuses ${JSON.stringify(given).slice(0, 60)}`, () => assert.equal(safeLinkTarget(given), undefined));
  }
  it('takes a destination of exactly 8,192 characters', () => {
    const href = `/${'a'.repeat(8_191)}`;
    assert.equal(safeLinkTarget(href), href);
  });

  it('judges a destination spelled with character references as what it decodes to', () => {
    for (const spelled of [
      '&#106;avascript:alert(1)',
      '&#x6A;avascript:alert(1)',
      'javascript&colon;alert(1)',
      'java&Tab;script:alert(1)',
      '&sol;&sol;evil.example',
      'data&#58;text/html,x',
    ]) {
      assert.equal(safeLinkTarget(decodeEntities(spelled)), undefined, spelled);
    }
    assert.equal(safeLinkTarget(decodeEntities('https&colon;&sol;&sol;example.com')), 'https://example.com/');
    assert.equal(decodeEntities('&#0;&#xD800;&#1114112;'), '\ufffd\ufffd\ufffd');
  });
});
