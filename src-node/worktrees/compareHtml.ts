/**
 * The compare view's page (issue 49): one card per agent asked, each with its answer's state, the files it changed
 * with their line counts, the task run in its worktree, and its buttons (Show the Chat, Apply, Open, Discard); each
 * file compares its versions. No script: every button is a command link the panel allows, and everything an agent
 * named (its name, its files) is escaped. The cards wrap to one column in a narrow editor.
 */
import type { ChangedFile } from '../../src/shared/changes';
import { pageHead } from '../../src/shared/page/pageHead';

export interface ComparedAgent {
  /** Its worktree's record id. */
  readonly id: string;
  readonly agent: string;
  readonly worktree: string;
  readonly state: 'working' | 'finished' | 'failed' | 'stopped' | 'asks you' | 'not started' | 'closed';
  readonly files: readonly Pick<ChangedFile, 'label' | 'kind' | 'added' | 'removed'>[];
  readonly task?: { readonly name: string; readonly state: 'running' | 'passed' | 'failed'; readonly code?: number };
  /** Applied to the user's workspace (when). */
  readonly applied?: boolean;
}

/** The commands the page's links run: the panel allows only these. */
export const COMPARE_COMMANDS = [
  'vscode-acp.compareShowChat',
  'vscode-acp.compareApply',
  'vscode-acp.openWorktree',
  'vscode-acp.discardWorktree',
  'vscode-acp.compareVersions',
  'vscode-acp.compareRunTask',
] as const;

type CompareCommand = (typeof COMPARE_COMMANDS)[number];

export function compareHtml(key: string, title: string, agents: readonly ComparedAgent[], cspSource: string): string {
  const csp = `default-src 'none'; style-src ${cspSource} 'unsafe-inline'`;
  return `${pageHead(csp, esc(title))}
<style>
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 8px 12px; }
  h1 { font-size: 1.2em; font-weight: 600; margin: 0 0 4px; overflow-wrap: anywhere; }
  .bar { margin: 0 0 12px; display: flex; flex-wrap: wrap; gap: 4px 12px; }
  .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
  .card { border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); border-radius: 4px; padding: 8px; background: var(--vscode-editorWidget-background); min-width: 0; }
  h2 { font-size: 1.05em; margin: 0; overflow-wrap: anywhere; }
  .sub, .empty { color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; }
  .state { display: inline-block; margin: 4px 0; padding: 0 6px; border-radius: 8px; background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
  .state.failed { background: var(--vscode-inputValidation-errorBackground); color: var(--vscode-foreground); }
  .actions { display: flex; flex-wrap: wrap; gap: 4px 10px; margin: 6px 0; }
  a { color: var(--vscode-textLink-foreground); text-decoration: none; }
  a:hover, a:focus { text-decoration: underline; }
  a:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  ul { list-style: none; padding: 0; margin: 4px 0 0; }
  li { display: flex; gap: 6px; align-items: baseline; padding: 1px 0; min-width: 0; }
  .name { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .added { color: var(--vscode-gitDecoration-addedResourceForeground); }
  .removed { color: var(--vscode-gitDecoration-deletedResourceForeground); }
  .passed { color: var(--vscode-testing-iconPassed); }
  .failedTask { color: var(--vscode-testing-iconFailed); }
</style>
</head>
<body>
<h1>${esc(title)}</h1>
<div class="bar">${link('vscode-acp.compareRunTask', [key], 'Run a task in each worktree...')}</div>
<div class="cards">${agents.map((a) => card(key, a)).join('')}</div>
</body>
</html>`;
}

function card(key: string, a: ComparedAgent): string {
  const added = a.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = a.files.reduce((n, f) => n + (f.removed ?? 0), 0);
  const counted =
    a.files.length === 0
      ? 'no files changed'
      : `${a.files.length} ${a.files.length === 1 ? 'file' : 'files'} <span class="added">+${added}</span> <span class="removed">-${removed}</span>`;
  const task = a.task
    ? `<div>${esc(a.task.name)}: ${a.task.state === 'running' ? 'running' : a.task.state === 'passed' ? '<span class="passed">passed</span>' : `<span class="failedTask">failed${a.task.code !== undefined ? ` (exit ${a.task.code})` : ''}</span>`}</div>`
    : '';
  const files = a.files
    .map(
      (f) =>
        `<li><span class="name" title="${esc(f.label)} (${f.kind})">${esc(f.label)}</span><span class="added">+${f.added ?? '?'}</span><span class="removed">-${f.removed ?? '?'}</span>${link('vscode-acp.compareVersions', [key, f.label], 'compare', `Compare the versions of ${f.label}`)}</li>`,
    )
    .join('');
  return `<section class="card" aria-label="${esc(a.agent)}">
<h2>${esc(a.agent)}</h2>
<div class="sub">${esc(a.worktree)}</div>
<span class="state${a.state === 'failed' ? ' failed' : ''}">${esc(a.state)}</span>${a.applied ? ' <span class="sub">applied</span>' : ''}
<div>${counted}</div>${task}
<div class="actions">${link('vscode-acp.compareShowChat', [a.id], 'Show the chat')}${link('vscode-acp.compareApply', [key, a.id], 'Apply')}${link('vscode-acp.openWorktree', [a.id], 'Open')}${link('vscode-acp.discardWorktree', [a.id], 'Discard')}</div>
${files ? `<ul>${files}</ul>` : ''}
</section>`;
}

function link(command: CompareCommand, args: readonly unknown[], text: string, title = text): string {
  const href = `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
  return `<a href="${esc(href)}" title="${esc(title)}">${esc(text)}</a>`;
}

/** Text as HTML shows it, in content and in quoted attributes. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
