/**
 * Which tool cards the user expanded, by entry id. UI state, not model state
 * (Zed keeps it in the view too); saved with the view so that it
 * survives VS Code hiding and re-creating the webview.
 */
import { loadUiState, saveUiState } from '../host';

/** Oldest ids are forgotten past this, so the saved state stays small. */
const MAX_REMEMBERED = 300;

let expanded: Set<string> | undefined;

function cards(): Set<string> {
  expanded ??= new Set(loadUiState().expanded ?? []);
  return expanded;
}

export function isCardExpanded(entryId: string): boolean {
  return cards().has(entryId);
}

export function setCardExpanded(entryId: string, open: boolean): void {
  const set = cards();
  set.delete(entryId);
  if (open) set.add(entryId);
  while (set.size > MAX_REMEMBERED) set.delete(set.values().next().value!);
  saveUiState({ expanded: [...set] });
}

/** A new chat may reuse entry ids: its cards start collapsed. */
export function forgetExpandedCards(): void {
  if (cards().size === 0) return;
  cards().clear();
  saveUiState({ expanded: [] });
}
