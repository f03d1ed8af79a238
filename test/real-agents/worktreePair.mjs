/**
 * Two real agents side by side in one window (issue 49): Claude Code and Codex, each with its own fake model and
 * throwaway HOME, in a workspace that is a Git repository with one commit, and OpenCode as a third. The in-host suite
 * (test/integration/real/worktrees.test.ts) gives the two one task with Ask Several Agents, each in a worktree of its
 * own, applies one and continues its chat with the third.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths.mjs';
import { REAL_AGENTS } from './agents.mjs';

/** The agents of the side-by-side run: the two the issue names; `--agents claude+codex` runs it alone. */
export const PAIR = ['claude', 'codex'];
export const PAIR_ID = PAIR.join('+');
/** The agent the applied chat is continued with. */
const THIRD = 'opencode';

/**
 * @param {{ bundle: string, timeoutMs: number, keep: boolean, log: (line: string) => void,
 *   endLeftovers: (mark: string) => Promise<number[]> }} options
 * @returns {Promise<number>} exit code
 */
export async function runWorktreePair({ bundle, timeoutMs, keep, log, endLeftovers }) {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-real-pair-ws-')));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# two agents side by side\n');
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: workspace });
  git('init', '-q');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'first');
  const runMark = `VSCODE_ACP_REAL_AGENT_RUN=${randomUUID()}`;
  const [markName, markValue] = runMark.split('=');
  const lines = [];
  const started = [];
  const worktrees = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-real-pair-worktrees-'));
  try {
    for (const id of [...PAIR, THIRD]) {
      const spec = REAL_AGENTS[id];
      await spec.install();
      const one = await spec.start({ workspace, log: (line) => lines.push(`[fake ${id}] ${line}`) });
      started.push(one);
      one.config = {
        agentId: `${id}-real`,
        agent: {
          name: `${spec.name} (fake model)`,
          command: one.agent.command,
          args: one.agent.args,
          env: { ...one.agent.env, [markName]: markValue },
        },
        fakeUrl: one.fake.url,
        runMark,
        scenario: spec.scenario(workspace),
        expect: spec.expect,
      };
    }
    log(`side by side: ${PAIR.join(' and ')}, then ${THIRD}, in ${workspace}, worktrees under ${worktrees}`);
    const { runNodeHostTests } = await import('../harness/code-server.mjs');
    let code = await runNodeHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: bundle,
      folder: workspace,
      env: { ACP_REAL_MODE: 'worktrees', ACP_REAL_PAIR: JSON.stringify(started.map((s) => s.config)) },
      userSettings: { 'vscode-acp.worktrees.location': worktrees },
      timeoutMs: Math.max(timeoutMs, 360_000),
    });
    const asked = lines.filter((l) => l.includes('unknown request'));
    if (asked.length) {
      log(`side by side: the fake models were asked what they do not know:\n  ${asked.join('\n  ')}`);
      if (code === 0) code = 1;
    }
    if (code !== 0) log(`side by side: fake endpoint logs:\n  ${lines.join('\n  ')}`);
    const left = await endLeftovers(runMark);
    if (left.length) {
      log(`side by side: ${left.length} agent process(es) outlived the run: ${left.join(' ')} (ended now)`);
      if (code === 0) code = 1;
    }
    const stayed = fs.readdirSync(worktrees);
    if (stayed.length) {
      log(`side by side: worktree folders left behind: ${stayed.join(', ')}`);
      if (code === 0) code = 1;
    }
    return code;
  } finally {
    await endLeftovers(runMark);
    for (const one of started) await one.fake.close();
    const dirs = [workspace, worktrees, ...started.map((s) => s.home)];
    if (keep) log(`kept ${dirs.join(' ')}`);
    else for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}
