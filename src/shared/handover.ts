/**
 * Continue with another agent (issue 49): the conversation so far, as the first prompt of the chat that continues it
 * carries it (an embedded Markdown resource). The transcript as the Markdown export writes it (threadMarkdown.ts),
 * bounded: where it does not fit, its oldest entries are left out and the text says how many (a single newest entry
 * still too long keeps its end); then the files of the Changes bar the user has not kept yet.
 */
import { emptySessionControls } from './sessionControls';
import type { Thread } from './thread/thread';
import { threadToMarkdown } from './threadMarkdown';
import { titleText } from './text/titleText';

/** The most the conversation takes in the new chat's first prompt. */
export const MAX_HANDOVER_CHARS = 100_000;
/** Files named as not yet kept; the rest counted. */
const MAX_UNKEPT_NAMED = 100;

/** The text handed over: `from` is the agent the conversation was with, `unkept` the bar's files (relative paths). */
export function handoverText(
  thread: Thread,
  from: string,
  unkept: readonly string[],
  maxChars = MAX_HANDOVER_CHARS,
): string {
  const head = `This conversation was with ${titleText(from) || 'another agent'}; you continue it. What was said so far:`;
  const named = unkept.slice(0, MAX_UNKEPT_NAMED).map((p) => `- ${titleText(p, 1_000)}`);
  const more = unkept.length > named.length ? [`- and ${unkept.length - named.length} more`] : [];
  const tail = unkept.length
    ? `\nFiles it changed that the user has not kept yet (they are in the working tree as the agent left them):\n${[...named, ...more].join('\n')}\n`
    : '';
  const room = Math.max(0, maxChars - head.length - tail.length - 200);
  const render = (from: number) =>
    // Not the old agent's controls: its modes, models and commands are not the new agent's.
    threadToMarkdown({
      ...thread,
      title: undefined,
      controls: emptySessionControls,
      entries: thread.entries.slice(from),
    });
  // The fewest oldest entries left out for the rest to fit: the text shrinks as the start moves on.
  let [low, high] = [0, thread.entries.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (render(mid).length <= room) high = mid;
    else low = mid + 1;
  }
  let body = render(low);
  if (low === thread.entries.length && thread.entries.length > 0) {
    // Not even the newest entry fits whole: its end, which is the latest said.
    low = thread.entries.length - 1;
    const newest = render(low);
    body = `…${newest.slice(newest.length - room)}`;
  }
  const left =
    low > 0 ? `(${low} earlier ${low === 1 ? 'entry is' : 'entries are'} left out: too long to carry.)\n\n` : '';
  return `${head}\n\n${left}${body.trimEnd()}\n${tail}`;
}
