/**
 * Proof outside VS Code: a plain ACP SDK client drives Claude Code's ACP agent through whole
 * turns against the fake Anthropic endpoint. For each scripted prompt: initialize (once),
 * session/new, session/prompt, a session/request_permission arrives, we answer it, the tool runs
 * (or not), the turn ends with the fake model's text.
 *
 *   node test/real-agents/sdkClient.mjs            # allow the Write, reject the Bash command
 *   VERBOSE=1 node test/real-agents/sdkClient.mjs  # also every session/update and agent stderr
 *   DUMP=/tmp/requests.json node ...               # writes every request the fake endpoint got
 *
 * Exit code 0 when every expectation held.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  CLAUDE_AGENT_ENTRY,
  CLAUDE_AGENT_NODE,
  claudeAgentEnv,
  installClaudeAgent,
  makeAgentHome,
} from './claudeAgent.mjs';
import { startFakeAnthropic } from './fakeAnthropic.mjs';
import { scriptRules, WRITE_CONTENT } from './script.mjs';
import { proofLog } from './proofLog.mjs';

const verbose = process.env.VERBOSE === '1';
const { say, expect, failures } = proofLog();

await installClaudeAgent();
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-claude-ws-')));
const home = await makeAgentHome();
const fake = await startFakeAnthropic({ rules: scriptRules(workspace), log: verbose ? undefined : () => {} });
let child;
try {
  say(`agent: ${CLAUDE_AGENT_NODE} ${CLAUDE_AGENT_ENTRY}`);
  child = spawn(CLAUDE_AGENT_NODE, [CLAUDE_AGENT_ENTRY], {
    cwd: workspace,
    env: { PATH: process.env.PATH, ...claudeAgentEnv({ home, baseUrl: fake.url }) },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stderr.setEncoding('utf8').on('data', (t) => verbose && process.stderr.write(`[agent stderr] ${t}`));
  child.on('exit', (code, signal) => say(`agent exited (${signal ?? code})`));

  /** What the next permission request is answered with. */
  let answer = 'allow_once';
  const permissions = [];
  const updates = [];
  const app = acp
    .client({ name: 'sdk-proof' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params.update);
      if (verbose) say(`update ${JSON.stringify(params.update).slice(0, 400)}`);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      say(
        `permission asked: ${JSON.stringify({ title: params.toolCall.title, kind: params.toolCall.kind, options: params.options.map((o) => `${o.kind}:${o.name}`) })}`,
      );
      const option = params.options.find((o) =>
        answer === 'reject' ? o.kind.startsWith('reject') : o.kind === answer,
      );
      say(`answering ${option.kind} (${option.optionId})`);
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  const withTimeout = (promise, ms, what) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);

  const init = await withTimeout(
    connection.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientInfo: { name: 'sdk-proof', version: '0.0.0' },
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        _meta: { terminal_output: true },
      },
    }),
    60_000,
    'initialize',
  );
  say(
    `initialize: ${init.agentInfo?.name} ${init.agentInfo?.version}, auth methods ${JSON.stringify(init.authMethods?.map((m) => m.id))}`,
  );

  for (const [prompt, choice, check] of [
    [
      'Please create greeting.txt',
      'allow_once',
      () => {
        const file = path.join(workspace, 'greeting.txt');
        expect(
          fs.existsSync(file) && fs.readFileSync(file, 'utf8') === WRITE_CONTENT,
          'greeting.txt written with the scripted content',
        );
      },
    ],
    [
      'Please run the command',
      'reject',
      () => {
        expect(!fs.existsSync(path.join(workspace, 'ran.txt')), 'ran.txt not created (rejected)');
      },
    ],
  ]) {
    answer = choice;
    permissions.length = 0;
    updates.length = 0;
    const started = Date.now();
    const session = await withTimeout(
      connection.agent.request('session/new', { cwd: workspace, mcpServers: [] }),
      60_000,
      'session/new',
    );
    say(
      `session/new: ${session.sessionId} (${Date.now() - started} ms); modes ${JSON.stringify(session.modes?.availableModes?.map((m) => m.id))} current ${session.modes?.currentModeId}`,
    );
    const turnStart = Date.now();
    const result = await withTimeout(
      connection.agent.request('session/prompt', {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text: prompt }],
      }),
      90_000,
      'session/prompt',
    );
    await new Promise((r) => setTimeout(r, 200)); // late updates (seen with real agents: they may follow the response)
    say(`"${prompt}": stopReason ${result.stopReason} after ${Date.now() - turnStart} ms`);
    expect(permissions.length === 1, `one permission request (got ${permissions.length})`);
    const text = updates
      .filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text')
      .map((u) => u.content.text)
      .join('');
    say(`agent text: ${JSON.stringify(text)}`);
    const tools = updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');
    say(
      `tool updates: ${tools.map((u) => `${u.sessionUpdate}(${u.kind ?? ''}${u.status ? ' ' + u.status : ''})`).join(', ')}`,
    );
    if (verbose) say(`permission request: ${JSON.stringify(permissions[0], null, 1)}`);
    check();
    say(`fake log: ${JSON.stringify(fake.messageLog().map((m) => m.answered))}`);
  }
  const results = fake.messageLog().flatMap((m) => m.toolResults);
  say(`tool results the agent sent: ${JSON.stringify(results)}`);
  expect(results.length === 2, 'both tool results came back to the model');
} catch (error) {
  failures.push(String(error?.stack ?? error));
  say(`error: ${error?.stack ?? error}`);
} finally {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  await fake.close();
  if (process.env.DUMP) fs.writeFileSync(process.env.DUMP, JSON.stringify(fake.requests, null, 1));
  const others = fake.requests.filter((r) => r.path !== '/v1/messages').map((r) => `${r.method} ${r.path}`);
  say(`other requests to the fake: ${JSON.stringify(others)}`);
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
}
say(failures.length ? `FAILED: ${failures.length}` : 'all expectations held');
process.exit(failures.length ? 1 : 0);
