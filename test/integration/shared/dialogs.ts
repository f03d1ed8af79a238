/** Answering the extension's quick picks in a test: `choose` picks from what is offered while `run` runs. */
import * as vscode from 'vscode';

type ShowQuickPick = (
  items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
) => Promise<vscode.QuickPickItem | undefined>;

export async function withQuickPick<T>(
  choose: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const window = vscode.window as unknown as { showQuickPick: ShowQuickPick };
  const real = window.showQuickPick;
  window.showQuickPick = async (items) => choose(await items);
  try {
    return await run();
  } finally {
    window.showQuickPick = real;
  }
}
