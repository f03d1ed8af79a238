/**
 * What the editor server asks of the editor, as plain data: the host's answers (VS Code's diagnostics, editors and
 * language providers: vscodeEditor.ts) without VS Code's types, so the tools (editorTools.ts) are the same in both
 * hosts and tested against fixtures. Places are 0-based, as VS Code counts; the tools say them 1-based.
 */

/** A range in a document: its uri (as VS Code writes it) and 0-based lines and characters. */
export interface Place {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
  readonly endLine: number;
  readonly endCharacter: number;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface Problem extends Place {
  readonly severity: Severity;
  readonly message: string;
  /** What reported it (`ts`, `eslint`), and its code for the problem. */
  readonly source?: string;
  readonly code?: string;
}

export interface Selection extends Place {
  /** The selected text as the editor shows it (unsaved changes included). */
  readonly text: string;
  readonly dirty: boolean;
}

export interface OpenEditor {
  readonly uri: string;
  readonly dirty: boolean;
  readonly active: boolean;
  /** The lines in view, 0-based, first and last of each visible range. */
  readonly visible: readonly (readonly [number, number])[];
}

export interface EditorSymbol extends Place {
  readonly name: string;
  /** VS Code's kind, in words (`class`, `method`). */
  readonly kind: string;
  /** The symbol it is in (a document outline's parent, a workspace symbol's container). */
  readonly container?: string;
  /** Nesting in a document's outline, 0 at the top. */
  readonly depth?: number;
}

export type LocationKind = 'definition' | 'references' | 'implementations';

/** A changed file of the working tree against HEAD, with its diff where asked for. */
export interface Change {
  readonly uri: string;
  /** `modified`, `added`, `deleted`, `renamed`, `untracked`... in Git's words. */
  readonly status: string;
}

export interface EditorPort {
  /**
   * The problems VS Code reports: of `uri` (its document opened first when none is, for the language servers that
   * check every open document), or of every document it knows of.
   */
  problems(uri?: string): Promise<Problem[]>;
  /** Whether an editor tab shows `uri`: TypeScript and others check only those files. */
  inEditor(uri: string): boolean;
  /** The active editor's selection, or none when no text editor is active. */
  selection(): Selection | undefined;
  openEditors(): OpenEditor[];
  /** How many lines `uri` has (opening it as VS Code does), or undefined when it cannot be opened. */
  lineCount(uri: string): Promise<number | undefined>;
  documentSymbols(uri: string): Promise<EditorSymbol[]>;
  workspaceSymbols(query: string): Promise<EditorSymbol[]>;
  locations(kind: LocationKind, uri: string, line: number, character: number): Promise<Place[]>;
  /** The hover's contents at a position, as Markdown. */
  hover(uri: string, line: number, character: number): Promise<string[]>;
  /** The working tree's changes against HEAD, or undefined without Git (its extension off, or no repository). */
  changes(): Promise<Change[] | undefined>;
  /** One file's diff against HEAD (unified), or undefined without Git. */
  diff(uri: string): Promise<string | undefined>;
}
