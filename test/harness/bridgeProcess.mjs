/** The real bridge (dist/bridge/bridge.js) with the scripted test agent (or a real one), for the web host's tests. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT, TEST_AGENT_JS } from './paths.mjs';

/**
 * Starts the real bridge with the test agent, whose sessions outlive its
 * process (the bridge starts one per connection), `env` added to their
 * environment; resolves with its URL, what it has printed so far (stdout and
 * stderr, which also go to ours) and a stop function. `command`: another agent
 * to serve instead (`[executable, ...args]`; `sessionsDir` and `scenario` unused).
 */
export function startBridge(
  cwd,
  sessionsDir,
  scenario = path.join(REPO_ROOT, 'test/integration/scenario.json'),
  env = {},
  command = [process.execPath, TEST_AGENT_JS, scenario, '--sessions', sessionsDir],
) {
  const agent = command;
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'dist/bridge/bridge.js'), '--port', '0', '--cwd', cwd, '--', ...agent],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    },
  );
  let printed = '';
  child.stderr.setEncoding('utf8').on('data', (text) => {
    printed += text;
    process.stderr.write(text);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      printed += text;
      const url = out.match(/ws:\/\/\S+/)?.[0];
      if (url) resolve({ url, printed: () => printed, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the bridge exited with code ${code} before printing its URL`)));
  });
}

/**
 * The scripted agent served over ACP's standard remote transport by the SDK's own server
 * (dist/test/standardServer.js): resolves with `{ url, httpUrl, stop }` once it listens (WebSocket and Streamable
 * HTTP at the same /acp).
 */
export function startStandardServer(scenario = path.join(REPO_ROOT, 'test/integration/scenario.json')) {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist/test/standardServer.js'), scenario], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      const url = out.match(/ws:\/\/\S+/)?.[0];
      const httpUrl = out.match(/http:\/\/\S+/)?.[0];
      if (url && httpUrl) resolve({ url, httpUrl, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the standard server exited (${code}) before it listened`)));
  });
}
