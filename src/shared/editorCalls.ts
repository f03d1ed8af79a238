/**
 * What the agent asked VS Code through the editor server (src/editorServer/), as the chat shows it under the answer:
 * each call's tool, what it was about (a file, a symbol, how many results) and the place it opens. The host writes
 * them from the call's structure and the editor's answer (never the agent's text, but for a search's query, cut).
 * A turn's calls gather out of sight and become one entry when it ends, after the answer (thread/messageEntries.ts).
 */
import { z } from 'zod/mini';

/** Calls one entry lists; it counts those after them. */
export const MAX_SHOWN_CALLS = 50;

export const editorCallSchema = z.object({
  tool: z.string().check(z.maxLength(40)),
  /** What it was about, as the user reads it: `problems in src/a.ts: 2 (1 error)`. */
  about: z.string().check(z.maxLength(400)),
  /** The place the call opens: an absolute path inside the session's folders, and its line from 1. */
  path: z.optional(z.string().check(z.maxLength(4_096))),
  /** The place as VS Code's URI, where the workspace is not on disk (VS Code for the Web): opened in its folders. */
  uri: z.optional(z.string().check(z.maxLength(4_096))),
  line: z.optional(z.int().check(z.positive())),
  /** The editor server refused it (a path outside the folders, a line past the end): nothing was read. */
  refused: z.optional(z.literal(true)),
});
export type EditorCall = z.infer<typeof editorCallSchema>;

export const editorCallsEntrySchema = z.object({
  kind: z.literal('editorCalls'),
  id: z.string(),
  calls: z.array(editorCallSchema).check(z.maxLength(MAX_SHOWN_CALLS)),
  /** Calls made after the listed ones, not listed. */
  more: z.optional(z.int().check(z.nonnegative())),
});
export type EditorCallsEntry = z.infer<typeof editorCallsEntrySchema>;

/** `entry` (a new one of `id` when none) with `call` added, within MAX_SHOWN_CALLS. */
export function withCall(entry: EditorCallsEntry | undefined, id: string, call: EditorCall): EditorCallsEntry {
  if (!entry) return { kind: 'editorCalls', id, calls: [call] };
  if (entry.calls.length < MAX_SHOWN_CALLS) return { ...entry, calls: [...entry.calls, call] };
  return { ...entry, more: (entry.more ?? 0) + 1 };
}
