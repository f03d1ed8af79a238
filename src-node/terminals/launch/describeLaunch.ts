/**
 * What the user approves: the text of a consent prompt, and the key under
 * which "always allow this in this session" remembers an approval.
 */
import { createHash } from 'node:crypto';
import type { PreparedLaunch } from './prepareLaunch';
import { quoted, shown } from './shownText';

/**
 * The consent prompt text: the resolved executable and every argument (quoted
 * when not plain, hidden characters escaped), the canonical folder, the
 * names of the variables passed, the values the agent chose, and what was
 * dropped. Never cut: an approval covers exactly what is shown.
 */
export function describeLaunch(launch: PreparedLaunch): string {
  const lines = [[launch.executable, ...launch.args].map(shown).join(' '), `in ${shown(launch.cwd)}`];
  const passed = Object.keys(launch.env).sort();
  lines.push(`Environment: ${passed.length > 0 ? passed.join(', ') : '(none)'}`);
  if (launch.envFromAgent.length > 0) {
    lines.push(
      `Set by the agent: ${launch.envFromAgent.map((name) => `${name}=${quoted(launch.env[name] ?? '')}`).join(', ')}`,
    );
  }
  if (launch.droppedEnv.length > 0) {
    lines.push(`Not passed (not allowed): ${launch.droppedEnv.map(shown).join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * Equal for launches that would run the same executable with the same
 * arguments in the same folder with the same environment. The output limit
 * is left out: it changes nothing the command does.
 */
export function launchKey(launch: PreparedLaunch): string {
  const env = Object.entries(launch.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = JSON.stringify([launch.executable, launch.args, launch.cwd, env]);
  return `launch:${createHash('sha256').update(text).digest('hex')}`;
}
