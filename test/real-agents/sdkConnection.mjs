/**
 * A real agent of agents.mjs over a plain SDK client, outside VS Code: its
 * fake model and throwaway HOME started, its process spawned in a group of its
 * own in a new workspace, the connection made (nothing asked yet; `spawnedAt`
 * says when the process started). `close()`
 * ends the group and removes everything. Permission requests are answered
 * `cancelled`; `onUpdate` gets every session/update.
 *
 *   const agent = await connectAgent(REAL_AGENTS.codex, { onUpdate: (sessionId, update) => ... });
 *   await agent.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES });
 *   await agent.close();
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';

/** What the extension's Node host offers an agent. */
export const CLIENT_CAPABILITIES = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

export async function connectAgent(spec, { name = 'vscode-acp-sdk', onUpdate = () => undefined } = {}) {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sdk-agent-ws-')));
  const { fake, home, agent } = await spec.start({ workspace, log: () => undefined });
  const spawnedAt = performance.now();
  const child = spawn(agent.command, agent.args, {
    cwd: workspace,
    env: { ...process.env, ...agent.env },
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  const connection = acp
    .client({ name })
    .onNotification('session/update', ({ params }) => onUpdate(params.sessionId, params.update))
    .onRequest('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }))
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  return {
    connection,
    workspace,
    /** `performance.now()` when the process was started. */
    spawnedAt,
    async close() {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      await fake.close();
      for (const dir of [workspace, home]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
