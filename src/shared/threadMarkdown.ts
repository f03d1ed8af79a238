/**
 * A plain Markdown rendering of a thread, used by golden tests (the Zed way:
 * assert what a person would read, not the data structure).
 */
import { fileChangeLabel } from './thread/fileChanges';
import type { SessionControls } from './sessionControls';
import { assertNever, type Entry, type Thread, type ToolContent } from './thread/thread';

export function threadToMarkdown(thread: Thread): string {
  const parts = thread.entries.map(entryToMarkdown);
  if (thread.title) parts.unshift(`# ${thread.title}`);
  if (thread.turn === 'running') parts.push('_(turn running)_');
  const controls = controlsToMarkdown(thread.controls);
  if (controls) parts.push(controls);
  return parts.join('\n\n') + '\n';
}

function entryToMarkdown(entry: Entry): string {
  switch (entry.kind) {
    case 'user':
      return `## User${entry.steered ? ' (steered into the answer)' : ''}\n\n${[entry.text, entry.attachments?.length ? `Attached: ${entry.attachments.map((a) => a.label).join(', ')}` : ''].filter(Boolean).join('\n\n')}`;
    case 'assistant':
      return `## Assistant\n\n${entry.text}`;
    case 'thought':
      return `<thinking>\n${entry.text}\n</thinking>`;
    case 'tool': {
      const where = entry.locations.map((l) => `${l.path}${l.line != null ? `:${l.line}` : ''}`).join(', ');
      const head = `**Tool Call: ${entry.title}** (${entry.toolKind}, ${entry.status})${where ? ` @ ${where}` : ''}`;
      const input = entry.input !== undefined ? ['```input\n' + entry.input + '\n```'] : [];
      const children = (entry.children ?? []).map((c) =>
        c.kind === 'tool'
          ? `> **Subagent's tool call: ${c.title}** (${c.toolKind}, ${c.status})`
          : `> ${c.text.replace(/\n/g, '\n> ')}`,
      );
      return [head, ...input, ...entry.content.map(toolContentMarkdown), ...children].join('\n');
    }
    case 'plan':
      return ['**Plan**', ...entry.entries.map((e) => `- [${e.status}] ${e.content} (${e.priority})`)].join('\n');
    case 'notice':
      return `> ${entry.level}: ${entry.text}${leftOut(entry.leftOut)}`;
    case 'compaction':
      return [
        `> Context compacted (${entry.status})${entry.error ? `: ${entry.error}` : ''}${leftOut(entry.leftOut)}`,
        ...(entry.summary ? [`<summary>\n${entry.summary}\n</summary>`] : []),
      ].join('\n\n');
    case 'editorCalls':
      return [
        '**Asked VS Code**',
        ...entry.calls.map((c) => `- ${c.about}`),
        ...(entry.more ? [`- and ${entry.more} more`] : []),
      ].join('\n');
    default:
      return assertNever(entry);
  }
}

function toolContentMarkdown(content: ToolContent): string {
  switch (content.type) {
    case 'content': {
      const b = content.block;
      const text =
        b.type === 'text'
          ? b.text
          : b.type === 'resource'
            ? `[${b.name}](${b.uri})${b.text ? `\n${b.text}` : ''}`
            : `[${b.type} ${b.mimeType}]`;
      return '```\n' + text + '\n```';
    }
    case 'diff':
      if (content.change) {
        const what = fileChangeLabel(content.change) || 'Modified';
        const body = content.hunks?.map(
          (h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}`,
        );
        return '```diff ' + content.path + '\n' + (body ? body.join('\n') : `(${what})`) + '\n```';
      }
      return (
        '```diff ' +
        content.path +
        '\n' +
        (content.oldText === null ? '(new file)\n' : `- ${content.oldText}\n`) +
        `+ ${content.newText}\n` +
        '```'
      );
    case 'terminal': {
      const end =
        content.exitCode != null ? ` (exit ${content.exitCode})` : content.signal ? ` (${content.signal})` : '';
      return '```terminal ' + content.terminalId + end + '\n' + content.output + '\n```';
    }
    default:
      return assertNever(content);
  }
}

function controlsToMarkdown(c: SessionControls): string {
  const lines: string[] = [];
  for (const o of c.configOptions) {
    lines.push(
      o.type === 'boolean'
        ? `- option ${o.name}: ${o.currentValue}`
        : `- option ${o.name}: ${o.currentValue} of [${o.options.map((x) => x.value).join(', ')}]`,
    );
  }
  if (c.modes) lines.push(`- mode: ${c.modes.currentModeId} of [${c.modes.available.map((m) => m.id).join(', ')}]`);
  if (c.models) {
    lines.push(`- model: ${c.models.currentModelId} of [${c.models.available.map((m) => m.modelId).join(', ')}]`);
  }
  if (c.commands.length > 0) {
    lines.push(`- commands: ${c.commands.map((x) => `/${x.name}${x.hint ? ` <${x.hint}>` : ''}`).join(', ')}`);
  }
  if (c.usage) {
    lines.push(
      `- usage: ${c.usage.used}/${c.usage.size}${c.usage.cost ? ` (${c.usage.cost.amount} ${c.usage.cost.currency})` : ''}`,
    );
  }
  return lines.length > 0 ? ['**Controls**', ...lines].join('\n') : '';
}

/** What a run cut short says (entryRuns.ts). */
function leftOut(count: number | undefined): string {
  return count ? ` (${count} more in a row before this one, not shown)` : '';
}
