/**
 * The expanded body of a tool card: what the tool was given, where it
 * worked, and everything it reported. Agent text stays text: Markdown goes
 * through <acp-markdown> (which sanitises), the rest is escaped by Lit.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { shownPath } from '../shared/shown-path';
import { visibleName } from '../../src/shared/text/visibleText';
import {
  assertNever,
  type DisplayBlock,
  type ToolContent,
  type ToolEntry,
  type ToolLocation,
} from '../../src/shared/thread/thread';
import { codicon } from '../shared/codicons';
import { hostLink } from '../shared/host-link';
import '../diff-view/diff-view';
import '../markdown/markdown';
import { plainText } from '../shared/text-pieces';
import '../terminal-output/terminal-output';

export function renderToolBody(entry: ToolEntry): TemplateResult {
  const locations = locationsToList(entry);
  return html`
    ${entry.name ? html`<p class="tool-name">Tool <code>${entry.name}</code></p>` : nothing}
    ${locations.length ? html`<ul class="locations" aria-label="Locations">${locations.map((l) => html`<li>${locationLink(l)}</li>`)}</ul>` : nothing}
    ${showsInput(entry) ? renderInput(entry) : nothing}
    ${entry.content.map(renderContent)}
    ${entry.children?.length ? renderSubagent(entry) : nothing}
    ${entry.content.length === 0 && entry.input === undefined && entry.locations.length === 0 && !entry.children?.length ? html`<p class="quiet">No details.</p>` : nothing}
  `;
}

/** What the subagent this call started did: its tool calls as cards of their own, its text, in order. */
function renderSubagent(entry: ToolEntry): TemplateResult {
  const children = entry.children ?? [];
  return html`<section class="subagent" aria-label="Subagent">
    <div class="subagent-head">${codicon('hubot')}<span>Subagent</span></div>
    ${entry.childrenCut ? html`<p class="quiet">${entry.childrenCut.toLocaleString('en-US')} earlier steps are not kept.</p>` : nothing}
    ${children.map((c) => {
      switch (c.kind) {
        case 'tool':
          return html`<acp-tool-card .entry=${c}></acp-tool-card>`;
        case 'assistant':
          return html`<acp-markdown .text=${c.text}></acp-markdown>`;
        case 'thought':
          return html`<p class="quiet plain subagent-thought">${plainText(c.text)}</p>`;
        default:
          return assertNever(c);
      }
    })}
  </section>`;
}

/**
 * An edit that shows its diff does not also show its raw input: that is the
 * same change as the agent's own JSON (OpenCode sends the whole diff again
 * as one string), which would only push the rest out of view.
 */
function showsInput(entry: ToolEntry): boolean {
  return entry.input !== undefined && !(entry.toolKind !== 'execute' && entry.content.some((c) => c.type === 'diff'));
}

/**
 * The locations not already shown by a diff: an edit usually names its file
 * both as a location and as the diff's path. A location with a line says
 * more than the diff's link (which opens the file at its top), so it stays.
 */
function locationsToList(entry: ToolEntry): readonly ToolLocation[] {
  const diffPaths = new Set(entry.content.flatMap((c) => (c.type === 'diff' ? [c.path] : [])));
  if (diffPaths.size === 0) return entry.locations;
  return entry.locations.filter((l) => validLine(l.line) !== undefined || !diffPaths.has(l.path));
}

function renderInput(entry: ToolEntry): TemplateResult {
  return entry.toolKind === 'execute'
    ? html`<pre class="input command"><span class="sr-only">Command: </span><span aria-hidden="true">$ </span>${plainText(visibleName(entry.input ?? ''))}</pre>`
    : html`<pre class="input"><span class="sr-only">Input: </span>${plainText(visibleName(entry.input ?? ''))}</pre>`;
}

function renderContent(content: ToolContent): TemplateResult {
  switch (content.type) {
    case 'content':
      return renderBlock(content.block);
    case 'diff':
      return html`<div class="diff">
        ${locationLink({ path: content.path })}
        <acp-diff-view .path=${content.path} .oldText=${content.oldText} .newText=${content.newText} .tooLarge=${content.tooLarge} .change=${content.change} .hunks=${content.hunks} .oldFrom=${content.oldFrom}></acp-diff-view>
      </div>`;
    case 'terminal':
      return html`<acp-terminal-output class="terminal" .output=${content.output} .exitCode=${content.exitCode} .signal=${content.signal}></acp-terminal-output>`;
    default:
      return assertNever(content);
  }
}

function renderBlock(block: DisplayBlock): TemplateResult {
  switch (block.type) {
    case 'text':
      // Often a file or a command's output rather than Markdown: its single newlines are kept.
      return html`<acp-markdown class="text" breaks .text=${block.text}></acp-markdown>`;
    case 'image':
    case 'audio':
      // Never loaded: the CSP forbids data: and remote sources, and agent media is not trusted.
      return html`<p class="placeholder">${codicon('file-media')} ${block.type === 'image' ? 'Image' : 'Audio'} (${block.mimeType}), not shown</p>`;
    case 'resource':
      return html`<div class="resource">
        ${hostLink({ type: 'openLink', href: block.uri }, block.uri, html`${codicon('link-external')} ${block.name || block.uri}`)}
        ${block.text !== undefined ? html`<pre>${plainText(block.text)}</pre>` : nothing}
      </div>`;
    default:
      return assertNever(block);
  }
}

/** A path the agent worked on; opened by the host only when the user activates the link. */
export function locationLink(location: ToolLocation): TemplateResult {
  const line = validLine(location.line);
  const path = visibleName(shownPath(location.path));
  const label = line ? `${path}:${line}` : path;
  const message = { type: 'openLocation' as const, path: location.path, ...(line ? { line } : {}) };
  return hostLink(message, `Open ${label}`, html`${codicon('go-to-file')} ${label}`, 'link location');
}

/** ACP lines are 1-based; a 0 or a fraction from a careless agent is dropped rather than refused by the host. */
function validLine(line: number | undefined): number | undefined {
  return line !== undefined && Number.isInteger(line) && line > 0 ? line : undefined;
}

// No href: VS Code's webview handles clicks on real links itself, so these are
// links by role (keyboard-reachable, Enter activates) and the host does the opening.
