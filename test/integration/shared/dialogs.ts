/** Answering the extension's quick picks and modal warnings in a test, while `run` runs. */
import * as vscode from 'vscode';

type ShowQuickPick = (
  items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
) => Promise<vscode.QuickPickItem | undefined>;

/** `choose` picks from what each quick pick offers. */
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

/** What a warning showed: '(none)' when none was. */
export interface Warning {
  readonly message: string;
  readonly detail: string;
  readonly buttons: readonly string[];
}

/** Each warning (modal or not) is answered by `answer`, given its buttons; resolves with the last one shown. */
export async function answeringWarning(
  answer: (buttons: string[]) => string | undefined,
  run: () => PromiseLike<unknown>,
): Promise<Warning> {
  type Warn = (
    message: string,
    options: { detail?: string } | string,
    ...items: string[]
  ) => Promise<string | undefined>;
  const window = vscode.window as unknown as { showWarningMessage: Warn };
  const real = window.showWarningMessage;
  let shown: Warning = { message: '(none)', detail: '', buttons: [] };
  window.showWarningMessage = async (message, options, ...items) => {
    // Without options, the first item is a button too.
    const buttons = typeof options === 'string' ? [options, ...items] : items;
    shown = { message, detail: typeof options === 'object' ? (options.detail ?? '') : '', buttons };
    return answer(buttons);
  };
  try {
    await run();
  } finally {
    window.showWarningMessage = real;
  }
  return shown;
}

/** Runs `run` with information messages answered (dismissed); resolves with the last one shown ('(none)' when none was). */
export async function answeringInfo(run: () => PromiseLike<unknown>): Promise<string> {
  type Info = (message: string, ...rest: unknown[]) => Promise<undefined>;
  const window = vscode.window as unknown as { showInformationMessage: Info };
  const real = window.showInformationMessage;
  let shown = '(none)';
  window.showInformationMessage = async (message) => void (shown = message);
  try {
    await run();
  } finally {
    window.showInformationMessage = real;
  }
  return shown;
}

/**
 * Ask Several Agents: runs `run` with the task typed in and `labels` picked from the agents offered (an agent's
 * model as "Agent · Model").
 */
export async function askingWith<T>(task: string, labels: readonly string[], run: () => Thenable<T>): Promise<T> {
  type Item = { label: string; description?: string };
  const window = vscode.window as unknown as {
    showInputBox: () => Promise<string | undefined>;
    showQuickPick: (items: readonly Item[] | Thenable<readonly Item[]>) => Promise<Item[] | undefined>;
  };
  const real = { input: window.showInputBox, pick: window.showQuickPick };
  window.showInputBox = async () => task;
  const named = (i: Item) => (i.description ? `${i.label} · ${i.description}` : i.label);
  window.showQuickPick = async (items) => (await items).filter((i) => labels.includes(named(i)));
  try {
    return await run();
  } finally {
    window.showInputBox = real.input;
    window.showQuickPick = real.pick;
  }
}

/** What `vscode-acp.askSeveralAgents` returns (the Node host's command). */
export interface Asked {
  readonly key: string;
  readonly chatIds: string[];
  compared(): Array<{
    id: string;
    agent: string;
    state: string;
    files: Array<{ label: string; added?: number; removed?: number }>;
    task?: { name: string; state: string; code?: number };
  }>;
}
