import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { descendants, signalEach } from '../../../../src-node/agents/descendants';

/** Running (a zombie waiting for its parent counts as gone). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the processes below an agent', function () {
  this.timeout(20_000);

  it('are found before any signal, a child in a group of its own too, and each one is ended by pid', async function () {
    if (process.platform !== 'linux') return this.skip();
    // An "agent" whose command runs in a session (and group) of its own, as Gemini CLI runs shell commands.
    const agent = spawn('sh', ['-c', 'setsid sleep 30 & sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    let tree: ReturnType<typeof descendants> = [];
    for (let i = 0; i < 50 && tree.length < 2; i++) {
      await sleep(50);
      tree = descendants(agent.pid!);
    }
    assert.equal(tree.length, 2, JSON.stringify(tree));
    // The agent's group alone does not reach the setsid child.
    process.kill(-agent.pid!, 'SIGKILL');
    await sleep(200);
    const left = tree.filter((p) => alive(p.pid));
    assert.equal(left.length, 1, 'the child in its own group outlives a signal to the agent group');
    signalEach(tree, 'SIGKILL');
    await sleep(200);
    assert.deepEqual(
      tree.filter((p) => alive(p.pid)),
      [],
    );
  });

  it('never signals a pid that now belongs to another process', () => {
    // A made-up entry with this process's pid but another start time: left alone.
    signalEach([{ pid: process.pid, start: '1' }], 'SIGKILL');
    assert.ok(alive(process.pid));
  });
});
