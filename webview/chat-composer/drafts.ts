/** Each chat's unsent text, kept in the webview's state (it survives the view being hidden and a reload). */
import { loadUiState, saveUiState } from '../host';

/** Moves `from`'s unsent text to `to`, unless `to` has its own. */
export function moveDraft(from: string, to: string): void {
  const { [from]: text, ...others } = loadUiState().drafts ?? {};
  if (!text || others[to]) return;
  saveUiState({ drafts: { ...others, [to]: text } });
}
