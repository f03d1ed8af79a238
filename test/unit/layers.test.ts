/**
 * The layer rules (see the README's development map) that the per-folder tsconfigs cannot express:
 * which folder may import which. The compiler already refuses Node in src/
 * and vscode/DOM in src/shared/.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');

function importsOf(dir: string): Array<{ file: string; target: string }> {
  const out: Array<{ file: string; target: string }> = [];
  for (const rel of fs.readdirSync(path.join(root, dir), { recursive: true }).map(String)) {
    if (!rel.endsWith('.ts')) continue;
    const file = path.join(root, dir, rel);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[1] ?? m[2];
      const target = spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), spec)) : spec;
      out.push({ file: path.relative(root, file), target });
    }
  }
  return out;
}

function violations(dir: string, allowed: (target: string) => boolean): string[] {
  return importsOf(dir).filter((i) => !allowed(i.target)).map((i) => `${i.file} imports ${i.target}`);
}

const local = (t: string) => t.startsWith('src') || t.startsWith('webview') || t.startsWith('test');

describe('layers', () => {
  it('src/shared imports only src/shared, zod and SDK types', () => {
    assert.deepEqual(violations('src/shared', (t) => t.startsWith('src/shared') || t === 'zod' || t === 'zod/mini' || t === '@agentclientprotocol/sdk'), []);
  });

  it('src (the shared core) never imports a platform folder or the webview', () => {
    assert.deepEqual(violations('src', (t) => !local(t) || t.startsWith('src/') || t === 'src'), []);
  });

  it('the webview imports only itself, src/shared and its UI libraries', () => {
    assert.deepEqual(violations('webview', (t) => t.startsWith('webview') || t.startsWith('src/shared') || /^(lit|marked|prismjs|diff|anser|zod)(\/|$)/.test(t)), []);
  });

  it('src-node and src-web do not import each other', () => {
    assert.deepEqual(violations('src-node', (t) => !t.startsWith('src-web')), []);
    assert.deepEqual(violations('src-web', (t) => !t.startsWith('src-node')), []);
  });
});
