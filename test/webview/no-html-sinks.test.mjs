/**
 * A rule of the webview as a check on the source: no webview code turns a string
 * into markup or code. Lit's escaping is the only way text reaches the DOM.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths.mjs';

const SINKS = [
  /\.innerHTML\b/,
  /\.outerHTML\b/,
  /\binsertAdjacentHTML\b/,
  /\bdocument\.write(ln)?\b/,
  /\bcreateContextualFragment\b/,
  /\bDOMParser\b/,
  /\bsrcdoc\b/,
  /\bunsafeHTML\b/,
  /\bunsafeSVG\b/,
  /\bunsafeMathML\b/,
  /\bunsafeStatic\b/,
  /\beval\s*\(/,
  /\bnew\s+Function\b/,
  /\bsetTimeout\s*\(\s*['"`]/,
  /\bPrism\.highlight(All|Element)?\s*\(/,
];

/** Code without comments: a comment may name a sink to say why it is not used. */
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('webview sources', function () {
  const dir = path.join(REPO_ROOT, 'webview');
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'));

  it('exist', () => assert.ok(files.length > 5));

  it('use no HTML or code sinks (innerHTML, unsafeHTML, eval, Prism.highlight, ...)', () => {
    const hits = [];
    for (const f of files) {
      const lines = code(fs.readFileSync(path.join(dir, f), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        for (const sink of SINKS) if (sink.test(line)) hits.push(`webview/${f}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(hits, []);
  });

  it('catch a sink when there is one (self-check)', () => {
    assert.ok(SINKS.some((s) => s.test(code('el.innerHTML = text;'))));
    assert.ok(!SINKS.some((s) => s.test(code('// never innerHTML here'))));
  });
});
