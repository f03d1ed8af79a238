/**
 * Which environment variables reach an agent's command. Nothing is inherited
 * by default: the editor's environment holds API keys, tokens and agent
 * sockets (SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR) that a
 * command the user approved for its text has no business seeing.
 *
 * Two lists. HOST_ONLY names come from the editor's environment and are
 * needed for ordinary tools to work at all, but they name places programs
 * load code or configuration from (PATH, HOME with its .gitconfig, SHELL,
 * TMPDIR), so an agent may not set them: its PATH or HOME would change what
 * an approved `git status` runs. AGENT_SETTABLE names only change formatting
 * or locale and never name a file or program; they come from the host and
 * the agent may override them. Everything else is dropped and listed.
 *
 * This keeps secrets that live in environment variables away from commands;
 * it is not a sandbox (the command runs as the user).
 */

const HOST_ONLY = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'TMP',
  'TEMP',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  // Windows: without these many programs (and Node itself) misbehave.
  'PATHEXT',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'USERPROFILE',
  'USERNAME',
  'USERDOMAIN',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMW6432',
  'COMMONPROGRAMFILES',
  'COMMONPROGRAMFILES(X86)',
  'COMMONPROGRAMW6432',
  'HOMEDRIVE',
  'HOMEPATH',
  'ALLUSERSPROFILE',
  'PUBLIC',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
]);

const AGENT_SETTABLE = new Set([
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLUMNS',
  'LINES',
  'CI',
]);

/** LC_ALL, LC_CTYPE, ...: locale categories, formatting only. */
const LOCALE = /^LC_[A-Z]+$/;
/** What an agent may name at all: a portable variable name. */
const AGENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface FilteredEnv {
  readonly env: Readonly<Record<string, string>>;
  /** Names in `env` whose value the agent chose. */
  readonly fromAgent: readonly string[];
  /** Names the agent asked for that are not passed. */
  readonly droppedFromAgent: readonly string[];
  /** Names in the editor's environment that are not passed. */
  readonly droppedFromHost: readonly string[];
}

/** Windows environment names are case-insensitive (`Path`, `SystemRoot`). */
function key(name: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? name.toUpperCase() : name;
}

export function hostMayPass(name: string, platform: NodeJS.Platform = process.platform): boolean {
  const k = key(name, platform);
  return HOST_ONLY.has(k) || agentMaySet(k, platform);
}

export function agentMaySet(name: string, platform: NodeJS.Platform = process.platform): boolean {
  const k = key(name, platform);
  return AGENT_NAME.test(name) && (AGENT_SETTABLE.has(k) || LOCALE.test(k));
}

/**
 * The environment a command gets: the allowlisted part of the host's, with
 * the agent's allowlisted entries on top (the last of repeated names wins).
 * Values are validated by the caller (NUL bytes).
 */
export function filterEnv(
  host: NodeJS.ProcessEnv,
  requested: ReadonlyArray<{ name: string; value: string }>,
  platform: NodeJS.Platform = process.platform,
): FilteredEnv {
  const env: Record<string, string> = {};
  const names = new Map<string, string>(); // key -> spelling used in env
  const droppedFromHost: string[] = [];
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (!hostMayPass(name, platform) || value.includes('\0')) droppedFromHost.push(name);
    else if (!names.has(key(name, platform))) {
      env[name] = value;
      names.set(key(name, platform), name);
    }
  }
  const fromAgent = new Set<string>();
  const dropped = new Set<string>();
  for (const { name, value } of requested) {
    if (!agentMaySet(name, platform)) {
      dropped.add(name);
      continue;
    }
    const spelling = names.get(key(name, platform)) ?? name;
    names.set(key(name, platform), spelling);
    env[spelling] = value;
    fromAgent.add(spelling);
  }
  return {
    env,
    fromAgent: [...fromAgent].sort(),
    droppedFromAgent: [...dropped].sort(),
    droppedFromHost: droppedFromHost.sort(),
  };
}
