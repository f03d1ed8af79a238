/**
 * A program the user asked for (an install, a sign-in) run in a VS Code
 * terminal they see: started as that program with its arguments (no shell),
 * not kept across reloads (its output is never saved), and its exit code
 * when the terminal closes.
 */
import * as vscode from 'vscode';

export function runInVisibleTerminal(options: {
  name: string;
  executable: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: vscode.Uri;
}): Promise<number | undefined> {
  const terminal = vscode.window.createTerminal({
    name: options.name,
    shellPath: options.executable,
    shellArgs: [...options.args],
    isTransient: true,
    ...(options.env ? { env: { ...options.env } } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  terminal.show();
  return new Promise((resolve) => {
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      closed.dispose();
      resolve(t.exitStatus?.code);
    });
  });
}
