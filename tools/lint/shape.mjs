/**
 * The house's shape, checked (issue 47): no source file over MAX_LINES lines, no source folder of more than
 * MAX_FILES files, no two source files that import each other (type imports count: the two are one concept then).
 * No exceptions: what was past the limits when these rules came was split (issue 47). The check reads a map of path ->
 * text, so that run.mjs can show it refusing a made-up tree as it shows the layer rules refusing an import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const MAX_LINES = 350;
export const MAX_FILES = 12;
const SOURCE_ROOTS = ['src', 'src-node', 'src-web', 'webview'];

/** The source files under `root`: path (relative, with /) -> text. */
export function sourceTree(root) {
  const tree = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.ts$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) {
        tree.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
      }
    }
  };
  for (const dir of SOURCE_ROOTS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return tree;
}

const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The relative imports of `file` (static, dynamic and re-exports), as paths of `tree`. */
function importsOf(file, text, tree) {
  const found = new Set();
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
    for (const candidate of [`${target}.ts`, `${target}/index.ts`, target]) {
      if (tree.has(candidate)) {
        found.add(candidate);
        break;
      }
    }
  }
  return found;
}

/** What is wrong with the shape of `tree` (path -> text). */
export function shapeProblems(tree) {
  const problems = [];
  const over = (what, limit, have) => {
    if (have > limit) problems.push(`${what}: ${have}, past the limit of ${limit} (split it; tools/lint/shape.mjs)`);
  };
  const folders = new Map();
  for (const [file, text] of tree) {
    over(`${file} lines`, MAX_LINES, lineCount(text));
    const dir = path.posix.dirname(file);
    folders.set(dir, (folders.get(dir) ?? 0) + 1);
  }
  for (const [dir, count] of folders) over(`${dir}/ files`, MAX_FILES, count);
  const imports = new Map([...tree].map(([file, text]) => [file, importsOf(file, text, tree)]));
  for (const [a, targets] of imports) {
    for (const b of targets) {
      if (a < b && imports.get(b)?.has(a)) {
        problems.push(`${a} <-> ${b} import each other (one concept, or one of them depends on the other)`);
      }
    }
  }
  return problems;
}
