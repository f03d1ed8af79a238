/** The editor the editor server's tests ask: fixed answers, as VS Code would give them for a small project. */
import type { EditorPort, EditorSymbol, Place, Problem } from '../../../../src/editorServer/editorPort';

/** A place in `path` below `root`, three characters long. */
export function placeIn(root: string, path: string, line: number, character = 0): Place {
  return { uri: `${root}/${path}`, line, character, endLine: line, endCharacter: character + 3 };
}

/** An editor that knows a few files below `root` (a folder's uri), and some outside it. */
export function fixtureEditor(root: string, over: Partial<EditorPort> = {}): EditorPort {
  const uri = (path: string) => `${root}/${path}`;
  const at = (path: string, line: number, character = 0) => placeIn(root, path, line, character);
  const problems: Problem[] = [
    {
      ...at('src/b.ts', 9, 4),
      severity: 'warning',
      message: 'unused\n   variable',
      source: 'eslint',
      code: 'no-unused',
    },
    {
      ...at('src/a.ts', 2, 6),
      severity: 'error',
      message: "Type 'string' is not assignable to type 'number'.",
      source: 'ts',
      code: '2322',
    },
    {
      uri: 'file:///etc/other.ts',
      line: 0,
      character: 0,
      endLine: 0,
      endCharacter: 1,
      severity: 'error',
      message: 'outside',
    },
  ];
  return {
    problems: async (u) => problems.filter((p) => u === undefined || p.uri === u),
    inEditor: (u) => u === uri('src/a.ts'),
    selection: () => ({ ...at('src/a.ts', 2, 0), endLine: 3, endCharacter: 1, text: 'let x = 1;\n}', dirty: true }),
    openEditors: () => [
      { uri: uri('src/a.ts'), dirty: true, active: true, visible: [[0, 40]] },
      { uri: 'file:///home/user/.bashrc', dirty: false, active: false, visible: [] },
    ],
    lineCount: async (u) => (u === uri('src/a.ts') ? 120 : undefined),
    documentSymbols: async () => [
      { ...at('src/a.ts', 0, 13), name: 'Greeter', kind: 'class', depth: 0 },
      { ...at('src/a.ts', 1, 2), name: 'greet', kind: 'method', depth: 1 },
    ],
    workspaceSymbols: async (query) =>
      Array.from({ length: 100_000 }, (_, i): EditorSymbol => ({
        ...at(`src/f${i}.ts`, i % 50),
        name: `${query}${i}`,
        kind: 'function',
      })),
    locations: async () => [
      at('src/a.ts', 0, 13),
      at('src/b.ts', 4, 2),
      { ...at('x', 1), uri: 'file:///usr/lib/lib.d.ts' },
    ],
    hover: async () => ['```ts\nclass Greeter\n```', 'Says hello.'],
    changes: async () => [
      { uri: uri('src/a.ts'), status: 'modified' },
      { uri: 'file:///elsewhere/x', status: 'modified' },
    ],
    diff: async () => '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n',
    ...over,
  };
}
