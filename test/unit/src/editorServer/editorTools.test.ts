import * as assert from 'node:assert/strict';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { EditorPort } from '../../../../src/editorServer/editorPort';
import { fixtureEditor, placeIn } from './fixtureEditor';
import { folderScope, type Resolved } from '../../../../src/editorServer/editorScope';
import {
  EDITOR_TOOLS,
  TOOL_GROUPS,
  runTool,
  serverName,
  type ToolContext,
} from '../../../../src/editorServer/editorTools';
import { editorMcpServer } from '../../../../src/editorServer/editorMcp';

const ROOT = 'file:///work/app';
const at = (path: string, line: number, character = 0) => placeIn(ROOT, path, line, character);
const fixture = (over: Partial<EditorPort> = {}) => fixtureEditor(ROOT, over);

/** A posix host's check, as the Node host's: absolute inside /work/app, or relative to it; no `..` out. */
async function check(text: string): Promise<Resolved> {
  if (text.includes('\0')) return { ok: false, why: 'it contains a NUL character' };
  const absolute = text.startsWith('/') ? text : `/work/app/${text}`;
  const parts: string[] = [];
  for (const part of absolute.split('/').slice(1)) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return { ok: true, uri: `file:///${parts.map(encodeURIComponent).join('/')}` };
}

const context = (over: Partial<EditorPort> = {}): ToolContext => ({
  editor: fixture(over),
  scope: folderScope([ROOT], check),
});
const tool = (name: string) => {
  const found = EDITOR_TOOLS.find((t) => t.name === name);
  assert.ok(found, name);
  return found;
};
const run = (name: string, args: Record<string, unknown> = {}, over: Partial<EditorPort> = {}) =>
  runTool(tool(name), tool(name).input.parse(args), context(over));

describe('The editor server: its tools', () => {
  it('says what each call was about as the user reads it, and the place it opens (a definition: where it is)', async () => {
    const looks = [
      await run('problems'),
      await run('problems', { path: 'src/c.ts' }),
      await run('selection'),
      await run('open_editors'),
      await run('symbols', { path: 'src/a.ts' }),
      await run('symbols', { query: 'x'.repeat(200) }),
      await run('definition', { path: 'src/a.ts', line: 5, character: 3 }),
      await run('references', { path: 'src/a.ts', line: 5, character: 3 }),
      await run('hover', { path: 'src/a.ts', line: 5, character: 3 }),
      await run('changes'),
      await run('changes', {}, { changes: async () => undefined }),
    ].map((a) => a.look && [a.look.about, a.look.uri?.slice(ROOT.length), a.look.line]);
    assert.deepEqual(looks, [
      ['problems in the workspace: 2 (1 error)', '/src/a.ts', 3],
      ['problems in src/c.ts: not known (not open)', '/src/c.ts', undefined],
      ['the selection in src/a.ts:3:1', '/src/a.ts', 3],
      ['open editors: 1', undefined, undefined],
      ['outline of src/a.ts: 2 symbols', '/src/a.ts', undefined],
      [`symbols matching "${'x'.repeat(60)}… (cut at 60 characters)": 100,000`, '/src/f0.ts', 1],
      ['definition at src/a.ts:5:3: src/a.ts:1:14', '/src/a.ts', 1],
      ['references at src/a.ts:5:3: 3', '/src/a.ts', 5],
      ['hover at src/a.ts:5:3', '/src/a.ts', 5],
      ['changes: 1 file', undefined, undefined],
      ['changes: no Git', undefined, undefined],
    ]);
  });

  it("lists the workspace's problems errors first, with code and source, and none outside the folders", async () => {
    const answer = await run('problems');
    assert.equal(
      answer.text,
      '2 problems in the workspace (1 error):\n' +
        "src/a.ts:3:7: error 2322: Type 'string' is not assignable to type 'number'. (ts)\n" +
        'src/b.ts:10:5: warning no-unused: unused variable (eslint)',
    );
  });

  it("gives one file's problems, and refuses a path outside the folders without asking the editor", async () => {
    assert.match((await run('problems', { path: 'src/b.ts' })).text, /^1 problem in src\/b\.ts \(0 errors\):/);
    let asked = false;
    const refused = await run('problems', { path: '../../etc/passwd' }, { problems: async () => ((asked = true), []) });
    assert.deepEqual(refused, {
      text: '"../../etc/passwd" cannot be read: it is outside the workspace folders.',
      isError: true,
    });
    assert.equal(asked, false);
    assert.equal((await run('problems', { path: '/etc/passwd' })).isError, true);
  });

  it('says when a file without known problems is not open in an editor (TypeScript checks only those)', async () => {
    assert.match(
      (await run('problems', { path: 'src/c.ts' })).text,
      /^No problems known in src\/c\.ts: it is not open in an editor/,
    );
    assert.equal(
      (await run('problems', { path: 'src/a.ts' }, { problems: async () => [] })).text,
      'No problems in src/a.ts.',
    );
  });

  it('shows the selection as the editor has it, unsaved text included, and nothing of a file outside', async () => {
    assert.equal((await run('selection')).text, 'Selected at src/a.ts:3:1-4:2 (unsaved changes):\nlet x = 1;\n}');
    const outside = await run(
      'selection',
      {},
      { selection: () => ({ ...at('x', 0), uri: 'file:///etc/shadow', text: 'secret', dirty: false }) },
    );
    assert.doesNotMatch(outside.text, /secret|shadow/);
  });

  it('lists open editors with their state, counting those outside the folders without naming them', async () => {
    const answer = await run('open_editors');
    assert.equal(
      answer.text,
      'src/a.ts (active, unsaved changes): lines 1-41 in view\n(and 1 file outside the workspace folders)',
    );
  });

  it("gives a file's outline nested, and bounds a workspace search of 100,000 symbols at 200, saying how many more", async () => {
    assert.equal(
      (await run('symbols', { path: 'src/a.ts' })).text,
      'Greeter (class): src/a.ts:1:14\n  greet (method): src/a.ts:2:3',
    );
    const many = (await run('symbols', { query: 'make' })).text.split('\n');
    assert.equal(many.length, 201);
    assert.equal(many[200], '(99,800 more not shown: ask for one file, or a narrower query)');
    assert.equal((await run('symbols', {})).isError, true);
  });

  it('answers definition, references and implementations as places, not naming one outside the folders', async () => {
    for (const name of ['definition', 'references', 'implementations']) {
      const answer = await run(name, { path: 'src/a.ts', line: 5, character: 3 });
      assert.equal(answer.text, 'src/a.ts:1:14\nsrc/b.ts:5:3\n(outside the workspace folders)', name);
    }
  });

  it('refuses a position past the end of the file, and a file the editor cannot open', async () => {
    const past = await run('definition', { path: 'src/a.ts', line: 121, character: 1 });
    assert.deepEqual(past, { text: 'Line 121 is past the end of src/a.ts (120 lines).', isError: true });
    const missing = await run('hover', { path: 'src/none.ts', line: 1, character: 1 });
    assert.deepEqual(missing, { text: 'src/none.ts cannot be opened.', isError: true });
    assert.throws(() => tool('hover').input.parse({ path: 'src/a.ts', line: 0, character: 1 }));
  });

  it('gives the hover as Markdown', async () => {
    assert.equal(
      (await run('hover', { path: 'src/a.ts', line: 1, character: 14 })).text,
      '```ts\nclass Greeter\n```\n\n---\n\nSays hello.',
    );
  });

  it('lists changes against HEAD inside the folders, a diff by path, and says when there is no Git', async () => {
    assert.equal((await run('changes')).text, 'modified: src/a.ts');
    assert.match((await run('changes', { path: 'src/a.ts' })).text, /^--- a\/src\/a\.ts/);
    const noGit = await run('changes', {}, { changes: async () => undefined });
    assert.match(noGit.text, /^Git is not available here/);
  });

  it("says the editor's failure as an error answer, cut to one bounded line", async () => {
    const answer = await run(
      'symbols',
      { query: 'x' },
      { workspaceSymbols: () => Promise.reject(new Error(`boom\n${'x'.repeat(5_000)}`)) },
    );
    assert.equal(answer.isError, true);
    assert.ok(answer.text.length < 1_100);
    assert.match(answer.text, /^VS Code could not answer: Error: boom x/);
  });

  it('shows a multi-root path with its folder name, and never decodes a broken escape into a throw', () => {
    const scope = folderScope(['file:///work/app', 'file:///work/lib'], check);
    assert.equal(scope.show('file:///work/lib/src/x%20y.ts'), 'lib/src/x y.ts');
    assert.equal(scope.show('file:///work/app/bad%E0%A4%A.ts'), 'app/bad%E0%A4%A.ts');
    assert.equal(scope.contains('file:///work/application/x'), false);
  });

  it("takes a name none of the user's servers has", () => {
    assert.equal(serverName(new Set()), 'vscode-editor');
    assert.equal(serverName(new Set(['vscode-editor', 'vscode-editor-2'])), 'vscode-editor-3');
  });
});

interface Reply {
  result?: {
    tools: { name: string; annotations: { readOnlyHint?: boolean }; inputSchema: { properties: object } }[];
    content: { text: string }[];
    isError?: boolean;
  };
  error?: unknown;
}

describe('The editor server over MCP (the official server library)', () => {
  const mcp = (groups: readonly string[]) =>
    createMcpHandler(() =>
      editorMcpServer(
        (t, args) => runTool(t, args, context()),
        new Set(groups as (typeof TOOL_GROUPS)[number][]),
        '1.0.0',
      ),
    );
  const call = async (handler: ReturnType<typeof mcp>, method: string, params: object) => {
    const response = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }),
    );
    const text = await response.text();
    const json = text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6);
    return JSON.parse(json) as Reply;
  };
  const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } };

  it('lists only the tools of the groups left on, read-only, with their input schemas', async () => {
    const handler = mcp(['problems', 'navigation']);
    assert.ok((await call(handler, 'initialize', init)).result);
    const listed = (await call(handler, 'tools/list', {})).result!.tools;
    assert.deepEqual(
      listed.map((t) => t.name),
      ['problems', 'definition', 'references', 'implementations', 'hover'],
    );
    assert.ok(listed.every((t) => t.annotations.readOnlyHint === true));
    assert.deepEqual(Object.keys(listed[1]!.inputSchema.properties).sort(), ['character', 'line', 'path']);
  });

  it("answers a call with the tool's text, a refusal as an error result, and bad arguments as an error", async () => {
    const handler = mcp([...TOOL_GROUPS]);
    const ok = await call(handler, 'tools/call', { name: 'problems', arguments: { path: 'src/a.ts' } });
    assert.match(ok.result!.content[0].text, /^1 problem in src\/a\.ts/);
    const refused = await call(handler, 'tools/call', { name: 'problems', arguments: { path: '/etc/passwd' } });
    assert.equal(refused.result!.isError, true);
    const bad = await call(handler, 'tools/call', { name: 'definition', arguments: { path: 'src/a.ts', line: -1 } });
    assert.ok(bad.error || bad.result!.isError);
    const off = await call(mcp(['problems']), 'tools/call', { name: 'changes', arguments: {} });
    assert.ok(off.error || off.result!.isError);
  });
});
