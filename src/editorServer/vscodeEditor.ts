/**
 * The editor port over VS Code's API: its diagnostics, editors and tabs, its language providers through the
 * `vscode.execute*Provider` commands (whatever language extensions the user has), and the Git extension's API where it
 * is on. Each answer is cut well before it is large (COLLECT_MAX), then bounded again by the tools.
 */
import * as vscode from 'vscode';
import { setting } from '../settings/settings';
import { pathInside } from '../shared/text/pathInside';
import { TOOL_GROUPS, type ToolGroup } from './editorTools';
import type {
  Change,
  EditorPort,
  EditorSymbol,
  LocationKind,
  OpenEditor,
  Place,
  Problem,
  Severity,
} from './editorPort';

/** Items read from one provider answer at most: the tools show 200 and say how many more, up to this. */
const COLLECT_MAX = 10_000;
const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];
const PROVIDERS: Record<LocationKind, string> = {
  definition: 'vscode.executeDefinitionProvider',
  references: 'vscode.executeReferenceProvider',
  implementations: 'vscode.executeImplementationProvider',
};
/** Git's `Status` (extensions/git/src/api/git.d.ts), in its order. */
const GIT_STATUS = [
  'staged, modified',
  'staged, added',
  'staged, deleted',
  'staged, renamed',
  'staged, copied',
  'modified',
  'deleted',
  'untracked',
  'ignored',
  'intent to add',
  'intent to rename',
  'type changed',
  'conflict (added by us)',
  'conflict (added by them)',
  'conflict (deleted by us)',
  'conflict (deleted by them)',
  'conflict (both added)',
  'conflict (both deleted)',
  'conflict (both modified)',
];

/** What this port reads of the Git extension's API (version 1). */
interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly indexChanges: readonly GitChange[];
    readonly workingTreeChanges: readonly GitChange[];
    readonly untrackedChanges?: readonly GitChange[];
  };
  diffWithHEAD(path: string): Promise<string>;
}
interface GitApi {
  readonly repositories: readonly GitRepository[];
}

function place(uri: vscode.Uri, range: vscode.Range): Place {
  const { start, end } = range;
  return {
    uri: uri.toString(),
    line: start.line,
    character: start.character,
    endLine: end.line,
    endCharacter: end.character,
  };
}

function codeText(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function problemOf(uri: vscode.Uri, d: vscode.Diagnostic): Problem {
  const code = codeText(d.code);
  return {
    ...place(uri, d.range),
    severity: SEVERITIES[d.severity] ?? 'error',
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code ? { code } : {}),
  };
}

function kindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'symbol').toLowerCase();
}

function markdownOf(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') return content;
  if ('language' in content) return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
  return content.value;
}

/** How long a document opened for its problems is given for its language server's first report, and then for quiet. */
const FIRST_REPORT_MS = 2_000;
const QUIET_MS = 300;

/**
 * Opens `uri` when no document has it, and waits for a language server's report: the first change of its problems,
 * then QUIET_MS without another (syntax, then semantic), FIRST_REPORT_MS at most. An open document's are current.
 * (TypeScript reports on files open in editor tabs only: for those the wait ends with nothing new.)
 */
async function checked(uri: vscode.Uri): Promise<void> {
  if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) return;
  await new Promise<void>((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(limit);
      listener.dispose();
      resolve();
    };
    const limit = setTimeout(done, FIRST_REPORT_MS);
    const listener = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === uri.toString())) return;
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
    });
    vscode.workspace.openTextDocument(uri).then(undefined, done);
  });
}

async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!extension) return undefined;
  try {
    const exports = extension.isActive ? extension.exports : await extension.activate();
    return exports.getAPI(1);
  } catch {
    return undefined;
  }
}

/** The tool groups the user leaves on (`vscode-acp.editorServer.*`). */
export function editorGroups(): Set<ToolGroup> {
  return new Set(TOOL_GROUPS.filter((group) => setting(`editorServer.${group}`)));
}

export class VscodeEditor implements EditorPort {
  async problems(uri?: string): Promise<Problem[]> {
    const found: Problem[] = [];
    const add = (u: vscode.Uri, list: readonly vscode.Diagnostic[]) => {
      for (const d of list) if (found.length < COLLECT_MAX) found.push(problemOf(u, d));
    };
    if (uri) {
      const u = vscode.Uri.parse(uri);
      await checked(u);
      add(u, vscode.languages.getDiagnostics(u));
    } else {
      for (const [u, list] of vscode.languages.getDiagnostics()) add(u, list);
    }
    return found;
  }

  inEditor(uri: string): boolean {
    return vscode.window.tabGroups.all.some((g) =>
      g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri),
    );
  }

  selection() {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    const { document, selection } = editor;
    return { ...place(document.uri, selection), text: document.getText(selection), dirty: document.isDirty };
  }

  openEditors(): OpenEditor[] {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const visible = new Map(vscode.window.visibleTextEditors.map((e) => [e.document.uri.toString(), e.visibleRanges]));
    const seen = new Set<string>();
    const open: OpenEditor[] = [];
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (!(tab.input instanceof vscode.TabInputText)) continue;
      const uri = tab.input.uri.toString();
      if (seen.has(uri) || open.length >= COLLECT_MAX) continue;
      seen.add(uri);
      const ranges = visible.get(uri) ?? [];
      open.push({
        uri,
        dirty: tab.isDirty,
        active: uri === active,
        visible: ranges.map((r) => [r.start.line, r.end.line] as const),
      });
    }
    return open;
  }

  async lineCount(uri: string): Promise<number | undefined> {
    try {
      return (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).lineCount;
    } catch {
      return undefined;
    }
  }

  async documentSymbols(uri: string): Promise<EditorSymbol[]> {
    const u = vscode.Uri.parse(uri);
    const answer = await vscode.commands.executeCommand<
      (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined
    >('vscode.executeDocumentSymbolProvider', u);
    const found: EditorSymbol[] = [];
    const walk = (symbols: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[], depth: number) => {
      for (const s of symbols) {
        if (found.length >= COLLECT_MAX) return;
        const range = 'range' in s ? s.selectionRange : s.location.range;
        found.push({ ...place(u, range), name: s.name, kind: kindName(s.kind), depth });
        if ('children' in s && depth < 32) walk(s.children, depth + 1);
      }
    };
    walk(answer ?? [], 0);
    return found;
  }

  async workspaceSymbols(query: string): Promise<EditorSymbol[]> {
    const answer = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
      'vscode.executeWorkspaceSymbolProvider',
      query,
    );
    return (answer ?? []).slice(0, COLLECT_MAX).map((s) => ({
      ...place(s.location.uri, s.location.range),
      name: s.name,
      kind: kindName(s.kind),
      ...(s.containerName ? { container: s.containerName } : {}),
    }));
  }

  async locations(kind: LocationKind, uri: string, line: number, character: number): Promise<Place[]> {
    const answer = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
      PROVIDERS[kind],
      vscode.Uri.parse(uri),
      new vscode.Position(line, character),
    );
    return (answer ?? [])
      .slice(0, COLLECT_MAX)
      .map((l) =>
        'targetUri' in l ? place(l.targetUri, l.targetSelectionRange ?? l.targetRange) : place(l.uri, l.range),
      );
  }

  async hover(uri: string, line: number, character: number): Promise<string[]> {
    const answer = await vscode.commands.executeCommand<vscode.Hover[] | undefined>(
      'vscode.executeHoverProvider',
      vscode.Uri.parse(uri),
      new vscode.Position(line, character),
    );
    return (answer ?? []).slice(0, 50).flatMap((h) => h.contents.slice(0, 50).map(markdownOf));
  }

  async changes(): Promise<Change[] | undefined> {
    const git = await gitApi();
    if (!git || git.repositories.length === 0) return undefined;
    const found: Change[] = [];
    for (const repository of git.repositories) {
      const { indexChanges, workingTreeChanges, untrackedChanges = [] } = repository.state;
      for (const c of [...indexChanges, ...workingTreeChanges, ...untrackedChanges]) {
        if (found.length >= COLLECT_MAX) break;
        found.push({ uri: c.uri.toString(), status: GIT_STATUS[c.status] ?? 'changed' });
      }
    }
    return found;
  }

  async diff(uri: string): Promise<string | undefined> {
    const git = await gitApi();
    const u = vscode.Uri.parse(uri);
    const repository = git?.repositories.find((r) => pathInside(u.toString(), r.rootUri.toString()));
    if (!repository) return undefined;
    return repository.diffWithHEAD(u.fsPath);
  }
}
