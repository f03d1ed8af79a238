/**
 * The prompts an agent expects the user to send next, offered as chips over
 * an empty composer (a click puts one in the box; nothing is sent unasked).
 * They come in `session_info_update._meta.promptSuggestions.suggestions[]`
 * (`{ text }` each; an empty list clears them), the key Claude Code's adapter
 * uses and names no vendor (it sends them to JetBrains AIR clients only,
 * today). Untrusted: at most three, one line each, bounded.
 */
import { titleText } from '../text/titleText';

export const MAX_SUGGESTIONS = 3;
export const MAX_SUGGESTION_CHARS = 300;

/** The suggestions in an update's `_meta`; undefined when it says nothing of them (the ones shown stay). */
export function suggestionsOf(meta: unknown): string[] | undefined {
  const value = (meta as { promptSuggestions?: { suggestions?: unknown } } | null | undefined)?.promptSuggestions;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.suggestions)) return undefined;
  const texts = value.suggestions
    .map((s: unknown) => (typeof (s as { text?: unknown })?.text === 'string' ? (s as { text: string }).text : ''))
    .map((t) => titleText(t, MAX_SUGGESTION_CHARS))
    .filter(Boolean);
  return [...new Set(texts)].slice(0, MAX_SUGGESTIONS);
}
