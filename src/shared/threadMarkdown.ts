/**
 * A plain Markdown rendering of a thread, used by golden tests (the Zed way:
 * assert what a person would read, not the data structure).
 */
import { assertNever, type Entry, type Thread } from './thread';

export function threadToMarkdown(thread: Thread): string {
  const parts = thread.entries.map(entryToMarkdown);
  if (thread.title) parts.unshift(`# ${thread.title}`);
  if (thread.turn === 'running') parts.push('_(turn running)_');
  return parts.join('\n\n') + '\n';
}

function entryToMarkdown(entry: Entry): string {
  switch (entry.kind) {
    case 'user': return `## User\n\n${entry.text}`;
    case 'assistant': return `## Assistant\n\n${entry.text}`;
    case 'thought': return `<thinking>\n${entry.text}\n</thinking>`;
    case 'tool': {
      const where = entry.locations.map((l) => `${l.path}${l.line != null ? `:${l.line}` : ''}`).join(', ');
      const head = `**Tool Call: ${entry.title}** (${entry.toolKind}, ${entry.status})${where ? ` @ ${where}` : ''}`;
      return [head, ...entry.output.map((o) => '```\n' + o + '\n```')].join('\n');
    }
    case 'plan': return ['**Plan**', ...entry.entries.map((e) => `- [${e.status}] ${e.content} (${e.priority})`)].join('\n');
    case 'notice': return `> ${entry.level}: ${entry.text}`;
    default: return assertNever(entry);
  }
}
