/**
 * What to spawn for an agent's resolved executable. On Windows, npm installs
 * command-line programs as `.cmd` shims that only cmd.exe can run, and cmd.exe
 * re-parses every argument: a standard npm shim is read back into the
 * interpreter and script it runs, and any other batch file is refused.
 */
import { promises as fs } from 'node:fs';
import { resolveExecutable, type ResolveOptions } from './resolveExecutable';
import { decodeWindowsShim, type WindowsShim } from './windowsShim';

export interface Launch {
  readonly executable: string;
  readonly args: readonly string[];
}

export async function launchFor(
  executable: string,
  args: readonly string[],
  options: ResolveOptions = {},
): Promise<Launch> {
  if (process.platform !== 'win32' || !/\.(cmd|bat)$/i.test(executable)) return { executable, args };
  return shimLaunch(await fs.readFile(executable, 'utf8'), executable, args, async (shim) => {
    const local = await fs.stat(shim.localInterpreter).then(
      (s) => s.isFile(),
      () => false,
    );
    return local ? shim.localInterpreter : resolveExecutable(shim.interpreter, process.env, options);
  });
}

/** The launch a shim's text stands for; `findInterpreter` picks the program (beside the shim, else on PATH). */
export async function shimLaunch(
  text: string,
  shimPath: string,
  args: readonly string[],
  findInterpreter: (shim: WindowsShim) => Promise<string | undefined>,
): Promise<Launch> {
  const shim = decodeWindowsShim(text, shimPath);
  if (!shim) {
    throw new Error(
      `${shimPath} is a batch file that is not a standard npm shim, and batch files are not run (cmd.exe would re-read the arguments). Set vscode-acp.agentPaths to the program itself.`,
    );
  }
  const interpreter = await findInterpreter(shim);
  if (!interpreter) throw new Error(`${shimPath} runs "${shim.interpreter}", which was not found on PATH.`);
  return { executable: interpreter, args: [...shim.args, shim.script, ...args] };
}
