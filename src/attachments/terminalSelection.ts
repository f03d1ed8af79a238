/**
 * ACP: Add Terminal Selection to Chat: the text selected in the active terminal, as an attachment. VS Code's API gives
 * an extension a terminal's selection only through a proposed API (`Terminal.selection`), so it is read as the
 * terminal's own Copy puts it on the clipboard, whose text is put back after.
 */
import * as vscode from 'vscode';
import { addAttachments } from './attach';
import type { DraftAttachments } from './draftAttachments';

/** Whether a selection was added; a reason is shown when none was. */
export async function attachTerminalSelection(draft: DraftAttachments): Promise<boolean> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return say('Open a terminal and select some of its text first.');
  // A selection across the screen takes its empty rows too: those before and after the text are left out.
  const text = (await terminalSelection())?.replace(/^(\s*\n)+/, '').trimEnd();
  if (!text) return say('Select some text in the terminal first.');
  const lines = text.split('\n').length;
  const name = terminal.name.replace(/\s+/g, ' ').trim().slice(0, 60) || 'Terminal';
  const label = `${name} (${lines} ${lines === 1 ? 'line' : 'lines'})`;
  addAttachments(draft, [
    {
      source: { type: 'text', label: `Selected in the terminal ${name}`, uri: 'terminal:selection', text },
      look: { label, detail: `Selected in the terminal ${name}`, icon: 'terminal' },
    },
  ]);
  return true;
}

/** The active terminal's selection, read through its Copy; the clipboard's text is as it was after. */
async function terminalSelection(): Promise<string | undefined> {
  const before = await vscode.env.clipboard.readText();
  // A mark no selection is: if it is still there after Copy, nothing was selected.
  const mark = `vscode-acp:no-selection:${Math.random().toString(36).slice(2)}`;
  await vscode.env.clipboard.writeText(mark);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const copied = await vscode.env.clipboard.readText();
    return copied === mark ? undefined : copied;
  } finally {
    await vscode.env.clipboard.writeText(before);
  }
}

function say(text: string): false {
  void vscode.window.showWarningMessage(text);
  return false;
}
