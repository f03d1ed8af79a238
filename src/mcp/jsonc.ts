/**
 * Strict reading of a JSON-with-comments file a project controls: comments
 * and trailing commas as VS Code allows them; a nesting limit checked before
 * the parser recurses; a property twice in one object refused; and objects
 * built so that no key (`__proto__` included) can touch a prototype.
 */
import { createScanner, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export type JsoncResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly why: 'syntax' | 'depth' | 'duplicate';
      readonly at?: string;
      readonly detail: string;
    };

// jsonc-parser's SyntaxKind (a const enum in its types).
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/** Deepest nesting of objects and arrays in `text`, counting until `limit` is passed (no recursion). */
export function nestingDepth(text: string, limit: number): number {
  const scanner = createScanner(text, true);
  let depth = 0;
  let deepest = 0;
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

export function readJsonc(text: string, maxDepth: number): JsoncResult {
  if (nestingDepth(text, maxDepth) > maxDepth) {
    return { ok: false, why: 'depth', detail: `nests objects or arrays more than ${maxDepth} levels deep` };
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length > 0 || !tree) {
    const first = errors[0];
    const where = first ? lineColumn(text, first.offset) : undefined;
    return {
      ok: false,
      why: 'syntax',
      detail: `is not valid JSON with comments${first ? ` (${printParseErrorCode(first.error)} at ${where})` : ''}`,
    };
  }
  const duplicate = { at: undefined as string | undefined };
  const value = build(tree, '', duplicate);
  if (duplicate.at !== undefined) {
    return { ok: false, why: 'duplicate', at: duplicate.at, detail: 'has the same property twice in one object' };
  }
  return { ok: true, value };
}

/** The value of a parse tree; `duplicate.at` is set (a position path) at the first repeated property. */
function build(node: Node, at: string, duplicate: { at: string | undefined }): unknown {
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      const seen = new Set<string>();
      (node.children ?? []).forEach((property, i) => {
        const [keyNode, valueNode] = property.children ?? [];
        const key = String(keyNode?.value);
        if (seen.has(key)) {
          duplicate.at ??= `${at}[property ${i}]`;
          return;
        }
        seen.add(key);
        // Defined, not assigned: `__proto__` becomes an own property like any other.
        Object.defineProperty(object, key, {
          value: valueNode ? build(valueNode, `${at}[property ${i}]`, duplicate) : undefined,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      return object;
    }
    case 'array':
      return (node.children ?? []).map((child, i) => build(child, `${at}[${i}]`, duplicate));
    default:
      return node.value;
  }
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}
