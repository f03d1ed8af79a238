/**
 * npm's Windows command shims (`tsc.cmd`, `codex.cmd`: written by npm's
 * cmd-shim, and by yarn 1 in the oldest form) read back into the program
 * they run, so that it can be started without cmd.exe: cmd.exe re-parses
 * the whole command line (`&`, `|`, `%VAR%`, `^`), which no quoting of
 * agent-controlled arguments survives.
 *
 * Only the exact texts cmd-shim generates are recognised, one template per
 * generation, with the same program, arguments and script in every place
 * the template repeats them. Anything else, including a shim someone edited,
 * is undefined: cmd.exe alone knows what such a file does.
 */
import * as path from 'node:path';

export interface WindowsShim {
  /**
   * The program the shim runs when no `localInterpreter` exists: a bare
   * name (`node`) that cmd.exe finds on PATH. Look it up on PATH as an
   * executable (.exe/.com); the shims drop `.JS` from PATHEXT so that a
   * `node.js` file is never run as the interpreter.
   */
  readonly interpreter: string;
  /** `<shim folder>\<interpreter>.exe`: what the shim runs instead when that file exists. */
  readonly localInterpreter: string;
  /** Interpreter arguments from the script's `#!` line, before the script. */
  readonly args: readonly string[];
  /** The script, absolute, resolved against the shim's folder. */
  readonly script: string;
  /** Which generation of cmd-shim wrote it (for logs). */
  readonly format: ShimFormat;
}

/**
 * The shape, oldest last: `if-exist` (npm <= 6, yarn 1), `setlocal` (early
 * cmd-shim 3), `find-dp0-at-end` (late npm 6), `goto-start` (npm 7 and
 * later), `pathext-after-endlocal` (newest cmd-shim).
 */
export type ShimFormat = 'pathext-after-endlocal' | 'goto-start' | 'find-dp0-at-end' | 'setlocal' | 'if-exist';

const FIND_DP0_HEAD = '@ECHO off\nGOTO start\n:find_dp0\nSET dp0=%~dp0\nEXIT /b\n:start\nSETLOCAL\nCALL :find_dp0\n\n';
const CHOOSE_PROG = 'IF EXIST "%dp0%\\{prog}.exe" (\n  SET "_prog=%dp0%\\{prog}.exe"\n) ELSE (\n  SET "_prog={prog}"\n';
const PATHEXT = 'SET PATHEXT=%PATHEXT:;.JS;=;%';
const RUN = '"%_prog%"{args}"%dp0%\\{script}" %*';
const NO_PAUSE = 'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & ';

/** Newest first. `{prog}`, `{args}` and `{script}` must read the same wherever they repeat. */
const TEMPLATES: ReadonlyArray<[ShimFormat, string]> = [
  // PATHEXT moved after endLocal, which had been undoing it (npm/cmd-shim#64).
  ['pathext-after-endlocal', `${FIND_DP0_HEAD}${CHOOSE_PROG})\n\n${NO_PAUSE}set PATHEXT=%PATHEXT:;.JS;=;% & ${RUN}`],
  // "Terminate batch job (Y/N)?" avoided by ending the script before the program ends.
  ['goto-start', `${FIND_DP0_HEAD}${CHOOSE_PROG}  ${PATHEXT}\n)\n\n${NO_PAUSE}${RUN}`],
  [
    'find-dp0-at-end',
    `@ECHO off\nSETLOCAL\nCALL :find_dp0\n\n${CHOOSE_PROG}  ${PATHEXT}\n)\n\n${RUN}\nENDLOCAL\nEXIT /b %errorlevel%\n:find_dp0\nSET dp0=%~dp0\nEXIT /b`,
  ],
  [
    'setlocal',
    '@SETLOCAL\n\n@IF EXIST "%~dp0\\{prog}.exe" (\n  @SET "_prog=%~dp0\\{prog}.exe"\n) ELSE (\n  @SET "_prog={prog}"\n' +
      `  @${PATHEXT}\n)\n\n"%_prog%"{args}"%~dp0\\{script}" %*\n@ENDLOCAL`,
  ],
  [
    'if-exist',
    '@IF EXIST "%~dp0\\{prog}.exe" (\n  "%~dp0\\{prog}.exe"{args}"%~dp0\\{script}" %*\n) ELSE (\n' +
      `  @SETLOCAL\n  @${PATHEXT}\n  {prog}{args}"%~dp0\\{script}" %*\n)`,
  ],
];

/** A bare program name: no path, nothing cmd.exe would interpret. */
const PROG = '[A-Za-z0-9_][A-Za-z0-9_.-]*';
/** Shebang arguments: separated by spaces, of characters cmd.exe passes through as they are. */
const ARGS = ' +(?:[A-Za-z0-9_=.,:/+@-]+ +)*';
/** A relative Windows path of plain characters (no %, ", !, ^, &, |, <, >, colon). */
const SCRIPT = '[\\p{L}\\p{N} @._+~\\\\-]+';

const PATTERNS = TEMPLATES.map(([format, template]) => ({ format, pattern: compile(template) }));

function compile(template: string): RegExp {
  const seen = new Set<string>();
  const body = template
    .split(/(\{prog\}|\{args\}|\{script\})/)
    .map((part) => {
      const name = /^\{(prog|args|script)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (seen.has(name)) return `\\k<${name}>`;
      seen.add(name);
      return `(?<${name}>${name === 'prog' ? PROG : name === 'args' ? ARGS : SCRIPT})`;
    })
    .join('');
  return new RegExp(`^${body}$`, 'u');
}

/**
 * The program, arguments and script an npm shim runs, or undefined when
 * `fileText` is not exactly such a shim. `shimPath` is the shim's absolute
 * Windows path (drive or UNC), ending in .cmd or .bat.
 */
export function decodeWindowsShim(fileText: string, shimPath: string): WindowsShim | undefined {
  const folder = shimFolder(shimPath);
  const text = normaliseLines(fileText);
  if (folder === undefined || text === undefined) return undefined;
  for (const { format, pattern } of PATTERNS) {
    const groups = pattern.exec(text)?.groups;
    if (!groups) continue;
    const script = scriptPath(folder, groups.script);
    if (script === undefined) return undefined;
    const args = groups.args.split(' ').filter((a) => a !== '');
    return {
      interpreter: groups.prog,
      localInterpreter: path.win32.join(folder, `${groups.prog}.exe`),
      args,
      script,
      format,
    };
  }
  return undefined;
}

function shimFolder(shimPath: string): string | undefined {
  if (!/\.(cmd|bat)$/i.test(shimPath) || /[\0"%]/.test(shimPath)) return undefined;
  const root = path.win32.parse(shimPath).root;
  const drive = /^[A-Za-z]:\\$/.test(root);
  const unc = /^\\\\[^\\?.][^\\]*\\[^\\]+\\$/.test(root);
  return drive || unc ? path.win32.dirname(path.win32.normalize(shimPath)) : undefined;
}

/** cmd-shim writes CRLF; a checkout may have LF. Mixed or lone CRs, a BOM or NUL are not its output. */
function normaliseLines(text: string): string | undefined {
  if (/[\0\uFEFF]/.test(text)) return undefined;
  const lf = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  if (lf.includes('\r') || (lf !== text && text.replace(/\r\n/g, '').includes('\n'))) return undefined;
  return lf.endsWith('\n') ? lf.slice(0, -1) : lf;
}

/** Each step a real name or `..`; `%~dp0` ends in a backslash, so the template's `\` doubles it harmlessly. */
function scriptPath(folder: string, relative: string): string | undefined {
  const steps = relative.split('\\');
  if (steps.some((s) => s === '' || s === '.' || s.trim() !== s || (/\.$/.test(s) && s !== '..'))) return undefined;
  return path.win32.resolve(folder, relative);
}
