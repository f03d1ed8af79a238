/**
 * The linter: typescript-eslint's recommended rules (syntax only: no type
 * information, so it runs in seconds), and the layers, stated as imports a
 * folder may not make. These replace test/unit/layers.test.ts.
 *
 * The layers (docs/development.md's map): src/shared/ is pure (no VS
 * Code, no Node, no DOM: only itself, zod and the SDK); src/ is the shared
 * core, which never reaches into a platform entry (src-node/, src-web/), the
 * webview or the tests; the two entries never import each other; the
 * webview imports only itself, src/shared/ and its UI libraries. The
 * compilers already refuse Node in src/ and vscode or the DOM in src/shared/
 * (each folder's tsconfig); these say which folder may import which.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** An import of one of `folders`, from anywhere: a relative path that climbs into it. */
const into = (...folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message: 'crosses a layer (see tools/lint/eslint.config.mjs)',
});
/** Any relative import that climbs `depth` folders (out of src/shared, for a file that many folders down in it). */
const outOfShared = (depth) => ({
  regex: `^(\\.\\./){${depth}}`,
  message: 'src/shared imports only src/shared (see tools/lint/eslint.config.mjs)',
});
/** A package import other than `packages` (or their subpaths). */
const packagesBut = (...packages) => ({
  regex: `^(?!\\.|(${packages.map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})(/|$))`,
  message: `this folder imports only ${packages.join(', ')} of the packages (see tools/lint/eslint.config.mjs)`,
});
const layer = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
});

/** The webview: itself, src/shared/ of the core, and its UI libraries. */
const webviewRules = [
  into('src-node', 'src-web', 'test'),
  { regex: '^(\\.\\./)+src/(?!shared(/|$))', message: 'the webview imports only src/shared of the core' },
  packagesBut('lit', 'marked', 'prismjs', 'diff', 'zod'),
];

/**
 * The rooms of src/, lowest first: each imports only rooms before it (and
 * itself). A folder is a room; so is a file at the top of src/.
 */
const SRC_ROOMS = [
  ['shared'],
  ['secrets', 'settings'],
  ['errorText', 'mcp', 'diagnostics', 'editorServer'],
  ['platform', 'capabilities', 'workspaceFolder', 'workspaceTrust'],
  ['agents'],
  ['connection'],
  ['attachments', 'session', 'changes'],
  ['chat', 'review'],
  ['chats'],
  ['walkthrough'],
  ['history', 'views'],
  ['commands', 'changesFeature'],
  ['extension'],
];
const ROOT_FILES = new Set([
  'errorText',
  'platform',
  'capabilities',
  'workspaceFolder',
  'workspaceTrust',
  'changesFeature',
  'walkthrough',
  'extension',
]);

function srcLayers() {
  // A new room has a place in the order, or the linter says so.
  const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src');
  const placed = new Set(SRC_ROOMS.flat());
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const room = entry.isDirectory() ? entry.name : entry.name.replace(/\.ts$/, '');
    if (entry.name.endsWith('.json') || placed.has(room)) continue;
    throw new Error(
      `src/${entry.name} has no place in SRC_ROOMS (tools/lint/eslint.config.mjs): say which rooms it may import`,
    );
  }
  const outside = into('src-node', 'src-web', 'webview', 'test');
  // A room's files may sit in folders of their own (src/chat/composer/): at each depth, the climb out of the room.
  const DEPTHS = [1, 2, 3];
  return SRC_ROOMS.flatMap((rooms, level) => {
    const above = SRC_ROOMS.slice(level + 1).flat();
    return rooms.flatMap((room) => {
      const root = ROOT_FILES.has(room);
      return (root ? [0] : DEPTHS).map((depth) => {
        const climb = depth === 0 ? '\\./' : `(\\.\\./){${depth}}`;
        const up =
          above.length === 0
            ? []
            : [
                {
                  regex: `^${climb}(${above.join('|')})(\\.ts)?(/|$)`,
                  message: `src/${room} imports only rooms below it (SRC_ROOMS in tools/lint/eslint.config.mjs)`,
                },
              ];
        const own = room === 'shared' ? [outOfShared(depth), packagesBut('zod', '@agentclientprotocol/sdk')] : [];
        const files = root ? [`src/${room}.ts`] : [`src/${room}/${'*/'.repeat(depth - 1)}*.ts`];
        return layer(files, [outside, ...up, ...own]);
      });
    });
  });
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'reports/**',
      'test-results/**',
      '.stryker-tmp/**',
      '**/node_modules/**',
      'test/bench/tmp/**',
      '.vscode-test*/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    extends: [eslint.configs.recommended, tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      // A body on lines of its own is in braces (Prettier breaks a long one-line `if` after its condition).
      curly: ['error', 'multi-line'],
      // `_`-prefixed names are unused on purpose (a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Agents send hostile text: matching control characters (to strip or show them) is the point, not a slip.
      'no-control-regex': 'off',
      // An empty catch is a failure that does not matter (a file already gone, a process already ended).
      'no-empty': ['error', { allowEmptyCatch: true }],
      // The integration suites load their tests after mocha's globals exist, with require.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\./[\\w.]+$'] }],
    },
  },
  {
    // webpack's configuration is CommonJS.
    files: ['webpack.config.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The chat core runs without VS Code (its unit tests run in plain Node): what it needs of the
    // window comes through WindowPort (src/platform.ts).
    files: ['src/chat/**/*.ts', 'src/session/**/*.ts', 'src/connection/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', allowTypeImports: true, message: 'the chat core imports vscode for types only' }] },
      ],
    },
  },
  ...srcLayers(),
  ...[
    layer(['src-node/**/*.ts'], [into('src-web', 'webview')]),
    layer(['src-web/**/*.ts'], [into('src-node', 'webview')]),
    layer(['webview/**/*.ts'], webviewRules),
    // After webview/**: of two entries for one file, the later one's rule is the one that holds.
    layer(
      ['webview/*/**/*.ts'],
      [
        ...webviewRules,
        { regex: '^\\.\\./chat-app(/|$)', message: 'only the app imports chat-app/: an element emits, the app talks' },
      ],
    ),
    layer(
      ['webview/shared/**/*.ts'],
      [...webviewRules, { regex: '^\\.\\./(?!\\.\\.)', message: 'webview/shared/ imports no element: they import it' }],
    ),
  ],
  {
    // The page's bundle: zod/mini only. A value from pageMessages.ts (classic zod) once added ~75 KB to it.
    files: ['webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'the webview uses zod/mini (classic zod is ~75 KB more in its bundle)' }],
          patterns: [
            {
              regex: 'src/shared/page/pageMessages$',
              allowTypeImports: true,
              message: 'the page takes only types from pageMessages.ts: its schemas are classic zod (~75 KB)',
            },
          ],
        },
      ],
    },
  },
);
