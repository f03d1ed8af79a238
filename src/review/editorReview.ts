/**
 * The agent's changes where the user reads code (issue 32): in every editor of a file in a chat's Changes bar, the
 * agent's hunks are marked (line backgrounds and the overview ruler, in the theme's diff colours), each with Keep
 * and Undo above it (CodeLens) and the lines it replaced on hover; the editor's title bar has the file's Keep and
 * Undo, its diff, and next and previous change.
 * Commands (with keys while the cursor is in an agent's change): next and previous change, keep, undo.
 * ../changes/hunkActions.ts does the keeping and undoing; hunkLenses.ts draws the lenses and hovers and finds a hunk from them.
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';
import type { ChatChanges } from '../changes/chatChanges';
import { keepHunk, reviewOf, undoHunk } from '../changes/hunkActions';
import type { Hunk } from '../changes/hunks';
import { contains, hoverOf, lensesOf, named, placeOf, type HunkAt, type Shown } from './hunkLenses';
import { errorMessage } from '../errorText';
import { ReviewPlace } from './reviewPlace';

/** Texts of kept versions held between looks (each at most 1 MiB). */
const MAX_CACHED_TEXTS = 32;

/** The chats' Changes bars, as the review sees them (chat/chats.ts gives them). */
export interface Bars {
  /** Every open chat's bar. */
  all(): readonly ChatChanges[];
  /** The bar of the chat shown. */
  shown(): ChatChanges | undefined;
  /** A chat changed (often: only what the bars hold is looked at), came or went. */
  readonly onDidChange: vscode.Event<unknown>;
}

/** Where the bars stand: it changes when any of them changes (their files, versions or comments), and only then. */
export function revisionOf(bars: Bars): string {
  return bars
    .all()
    .map((c) => c.revision)
    .join(',');
}

export class EditorReview implements vscode.Disposable {
  private readonly shown = new Map<string, Shown>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly removed = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderColor: new vscode.ThemeColor('editorGutter.deletedBackground'),
    borderStyle: 'solid',
    borderWidth: '0 0 2px 0',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly lenses = new vscode.EventEmitter<void>();
  private readonly _onDidRefresh = new vscode.EventEmitter<void>();
  /** Where the hunks are changed (where comments may go). */
  readonly onDidRefresh = this._onDidRefresh.event;
  /** The context keys and the status bar's "Agent change 1 of 2" (reviewPlace.ts). */
  private readonly place = new ReviewPlace();
  private signature = '';
  /** The visible files' editors, and the hunks' places, as last seen. */
  private files = '';
  private readonly texts = new Map<string, string | undefined>();
  private ranges = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A look is scheduled: what is shown may be out of date (an edit, a Keep or Undo, a bar's change). */
  private due = false;
  private refreshing = Promise.resolve();
  /** The Keep and Undo commands, one after another: each acts on what the one before left. */
  private acting = Promise.resolve();

  constructor(
    private readonly bars: Bars,
    private readonly checkpoints: Checkpoints,
  ) {
    const files = { scheme: 'file' };
    this.subscriptions.push(
      this.place,
      this.added,
      this.removed,
      this.lenses,
      this._onDidRefresh,
      bars.onDidChange(() => this.barsChanged()),
      // Only the files' editors count: a comment's input box is an editor too (a refresh while it is open would
      // tell VS Code the commenting ranges changed, and it would drop what is being typed).
      vscode.window.onDidChangeVisibleTextEditors(() => this.editorsChanged()),
      vscode.workspace.onDidChangeTextDocument((e) => this.shown.has(e.document.uri.fsPath) && this.schedule(150)),
      vscode.workspace.onDidSaveTextDocument((d) => this.shown.has(d.uri.fsPath) && this.schedule(0)),
      vscode.window.onDidChangeTextEditorSelection(() => this.updateContext()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.languages.registerCodeLensProvider(files, {
        onDidChangeCodeLenses: this.lenses.event,
        provideCodeLenses: (document) => {
          const shown = this.current(document);
          return shown ? lensesOf(shown, document) : [];
        },
      }),
      vscode.languages.registerHoverProvider(files, {
        provideHover: (document, position) => {
          const shown = this.current(document);
          return shown && hoverOf(shown, document, position.line);
        },
      }),
      vscode.commands.registerCommand('vscode-acp.nextChange', () => this.go(1)),
      vscode.commands.registerCommand('vscode-acp.previousChange', () => this.go(-1)),
      vscode.commands.registerCommand('vscode-acp.keepChange', (at?: unknown) =>
        this.oneAtATime(() => this.act('keep', at)),
      ),
      vscode.commands.registerCommand('vscode-acp.undoChange', (at?: unknown) =>
        this.oneAtATime(() => this.act('undo', at)),
      ),
      vscode.commands.registerCommand('vscode-acp.keepFileChanges', (path?: unknown) =>
        this.oneAtATime(() => this.whole('keep', path)),
      ),
      vscode.commands.registerCommand('vscode-acp.undoFileChanges', (path?: unknown) =>
        this.oneAtATime(() => this.whole('undo', path)),
      ),
      vscode.commands.registerCommand('vscode-acp.openFileChanges', (path?: unknown) => this.whole('open', path)),
    );
    this.barsChanged();
  }

  /** The lines of the agent's change in `document`, where comments may go. */
  commentRanges(document: vscode.TextDocument): vscode.Range[] {
    const last = Math.max(0, document.lineCount - 1);
    return (this.current(document)?.review.hunks ?? []).map((hunk) => {
      const { start, count } = placeOf(hunk);
      const from = Math.min(count > 0 ? start : Math.max(0, start - 1), last);
      return new vscode.Range(from, 0, Math.min(count > 0 ? start + count - 1 : from, last), 0);
    });
  }

  /** Which chat's bar has `path` (the first open chat that has it). */
  private changesOf(path: string): ChatChanges | undefined {
    return this.bars.all().find((c) => c.change(path));
  }

  /** The bars' files and versions changed: the editors are shown again (not at every streamed token). */
  private barsChanged(): void {
    const signature = revisionOf(this.bars);
    if (signature === this.signature) return;
    this.signature = signature;
    this.schedule(0);
  }

  private editorsChanged(): void {
    const files = vscode.window.visibleTextEditors
      .filter((e) => e.document.uri.scheme === 'file')
      .map((e) => e.document.uri.toString())
      .sort()
      .join('\n');
    if (files === this.files) return;
    this.files = files;
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.due = true;
    this.timer = setTimeout(() => void this.lookNow(), delayMs);
  }

  /** Looks at the editors now (after any look under way), not after the debounce. */
  private lookNow(): Promise<void> {
    clearTimeout(this.timer);
    this.due = false;
    this.refreshing = this.refreshing.then(() => this.refresh()).catch(() => undefined);
    return this.refreshing;
  }

  /**
   * Looked at again first when a look is due or the document's text changed since the last one: a key pressed or a
   * lens clicked within the debounce of an edit, of the reload of a file an Undo wrote, or of another Keep or Undo
   * acts on the hunks as they are.
   */
  private async fresh(document: vscode.TextDocument | undefined): Promise<void> {
    const stale = document !== undefined && this.shown.has(document.uri.fsPath) && !this.current(document);
    if (this.due || stale) await this.lookNow();
  }

  /** The review of the active editor for a command, fresh. */
  private async activeReview(): Promise<{ editor: vscode.TextEditor; shown: Shown } | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    await this.fresh(editor.document);
    const shown = this.current(editor.document);
    return shown && { editor, shown };
  }

  private async refresh(): Promise<void> {
    const editors = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === 'file');
    // The kept versions' texts, read once per look-again of the bars rather than at every edit of the user.
    if (this.texts.size > MAX_CACHED_TEXTS) this.texts.clear();
    const seen = new Set<string>();
    for (const editor of editors) {
      const path = editor.document.uri.fsPath;
      seen.add(path);
      const changes = this.changesOf(path);
      const review = changes && (await reviewOf(changes, this.checkpoints, path, editor.document, this.texts));
      if (changes && review) this.shown.set(path, { changes, review, version: editor.document.version });
      else this.shown.delete(path);
    }
    for (const path of [...this.shown.keys()]) if (!seen.has(path)) this.shown.delete(path);
    for (const editor of editors) this.decorate(editor);
    this.lenses.fire();
    // Where comments may go: VS Code is told only when it moved (telling it redraws the comment widgets).
    const ranges = [...this.shown]
      .map(([path, s]) => `${path}:${s.review.hunks.map((h) => `${placeOf(h).start}+${placeOf(h).count}`).join(',')}`)
      .join('\n');
    if (ranges !== this.ranges) {
      this.ranges = ranges;
      this._onDidRefresh.fire();
    }
    this.updateContext();
  }

  private decorate(editor: vscode.TextEditor): void {
    const shown = this.current(editor.document);
    const added: vscode.Range[] = [];
    const removed: vscode.Range[] = [];
    for (const hunk of shown?.review.hunks ?? []) {
      const at = placeOf(hunk);
      if (at.count > 0) added.push(new vscode.Range(at.start, 0, at.start + at.count - 1, 0));
      else removed.push(new vscode.Range(Math.max(0, at.start - 1), 0, Math.max(0, at.start - 1), 0));
    }
    editor.setDecorations(this.added, added);
    editor.setDecorations(this.removed, removed);
  }

  /** The review of `document` when it is of its text now. */
  private current(document: vscode.TextDocument): Shown | undefined {
    const shown = this.shown.get(document.uri.fsPath);
    return shown && shown.version === document.version ? shown : undefined;
  }

  /** Moves the cursor to the next (1) or previous (-1) agent change, on to the next file of the bar past the last. */
  private async go(step: 1 | -1): Promise<void> {
    const active = await this.activeReview();
    const editor = active?.editor ?? vscode.window.activeTextEditor;
    const shown = active?.shown;
    const line = editor?.selection.active.line ?? 0;
    const starts = (shown?.review.hunks ?? []).map((h) => placeOf(h).start);
    const next = step === 1 ? starts.find((s) => s > line) : starts.reverse().find((s) => s < line);
    if (editor && next !== undefined) return reveal(editor, next);
    const changes = shown?.changes ?? this.bars.shown();
    const paths = changes?.paths ?? [];
    if (paths.length === 0) return;
    const at = editor ? paths.indexOf(editor.document.uri.fsPath) : -1;
    const path = paths[(at + step + paths.length) % paths.length]!;
    if (!(await fileExists(path))) return;
    const opened = await vscode.window.showTextDocument(vscode.Uri.file(path));
    await this.lookNow();
    const hunks = this.current(opened.document)?.review.hunks ?? [];
    const target = step === 1 ? hunks[0] : hunks.at(-1);
    if (target) reveal(opened, placeOf(target).start);
  }

  /** Runs a Keep or Undo once those before it are done (two quick clicks would both act on the same version). */
  private oneAtATime(action: () => Promise<void>): Promise<void> {
    const done = this.acting.then(action);
    this.acting = done.catch(() => undefined);
    return done;
  }

  private async act(what: 'keep' | 'undo', at: unknown): Promise<void> {
    const found = await this.hunkAt(at);
    if (!found) return;
    const { shown, hunk, document } = found;
    try {
      if (what === 'keep') await keepHunk(shown.changes, this.checkpoints, shown.review, hunk);
      else await undoHunk(shown.changes, this.checkpoints, shown.review, hunk, document);
    } catch (error) {
      void vscode.window.showWarningMessage(`${what === 'keep' ? 'Keep' : 'Undo'}: ${errorMessage(error)}`);
    }
    this.signature = '';
    this.barsChanged();
  }

  /** The hunk a command is for: the one a lens or hover names (HunkAt), or the one at the active editor's cursor. */
  private async hunkAt(at: unknown): Promise<{ shown: Shown; hunk: Hunk; document?: vscode.TextDocument } | undefined> {
    if (typeof at === 'object' && at !== null) {
      const { path } = at as { path?: unknown };
      if (typeof path !== 'string') return undefined;
      const document = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path);
      await this.fresh(document);
      const shown = this.shown.get(path);
      const hunk = shown && named(shown, at as Partial<HunkAt>);
      if (!shown || !hunk) {
        void vscode.window.showInformationMessage('That change is not there any more: it was kept, undone or edited.');
        return undefined;
      }
      return { shown, hunk, ...(document ? { document } : {}) };
    }
    const active = await this.activeReview();
    if (!active) return undefined;
    const { editor, shown } = active;
    const hunk = shown.review.hunks.find((h) => contains(h, editor.selection.active.line));
    return hunk ? { shown, hunk, document: editor.document } : undefined;
  }

  private async whole(what: 'keep' | 'undo' | 'open', path: unknown): Promise<void> {
    // A path from a lens, the editor's URI from its title bar, or else the active editor's.
    const file =
      typeof path === 'string'
        ? path
        : path instanceof vscode.Uri
          ? path.fsPath
          : vscode.window.activeTextEditor?.document.uri.fsPath;
    const changes = file ? this.changesOf(file) : undefined;
    if (!file || !changes) return;
    if (what === 'keep') changes.keep(file);
    else if (what === 'undo') await changes.undo(file);
    else await changes.open(file);
  }

  private updateContext(): void {
    // The files whose editors have the title bar's actions (next and previous change, Keep and Undo of the file).
    const files = [...this.shown]
      .filter(([, s]) => s.review.hunks.length > 0)
      .map(([path]) => vscode.Uri.file(path).path);
    const editor = vscode.window.activeTextEditor;
    const shown = editor && this.current(editor.document);
    this.place.show(files, shown?.review.hunks ?? [], editor?.selection.active.line ?? -1);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}

function reveal(editor: vscode.TextEditor, line: number): void {
  const position = new vscode.Position(line, 0);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

async function fileExists(path: string): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(vscode.Uri.file(path));
    return true;
  } catch {
    return false;
  }
}
