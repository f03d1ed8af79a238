/**
 * Proof outside VS Code: a plain ACP SDK client drives Codex (@agentclientprotocol/codex-acp,
 * which runs `codex app-server`) through whole turns against the fake Responses endpoint
 * (fakeModel.mjs), offline.
 *
 * First agent process, in agent.mjs's mode (read-only: Codex asks before every patch, and
 * before a command the model wants outside the sandbox): initialize, session/new, then (a) a
 * streamed reply (and the session title codex-acp asks the model for), (b) a new file and (c) an
 * edit through apply_patch, (d) a shell command (each permission allowed, results checked on
 * disk), (e) a shell command whose permission is rejected, model and reasoning effort
 * (session/set_config_option, checked in the next model request), (f) a new file and a command
 * with the new model (code mode: the tools through `exec`), mode switching (session/set_mode,
 * the "mode" config option), session/list; then stdin is closed (does it exit?), else the
 * leader gets SIGTERM.
 * Second process, same HOME, started in codex-acp's default mode ('agent', Auto review):
 * session/new offers it, session/list, session/load (history replayed), a turn in the loaded
 * session (the model sees the history), session/resume, (g) a long command, allowed by the
 * auto-reviewer (a model request, fakeModel.mjs REVIEW); while it runs, SIGTERM to the process
 * group (does the command end too?).
 *
 *   node test/real-agents/codex/sdkClient.mjs
 *   VERBOSE=1 node ...                   # every session/update, agent stderr, fake endpoint log
 *   DUMP=/tmp/codex-acp.jsonl node ...   # every JSON-RPC message, one a line: {t (ms since start), at, agent, dir, msg}
 *   FAKE_DUMP=/tmp/fake.json node ...    # every request the fake model got, with its full body
 *   KEEP=1 node ...                      # keep the workspace and the agent's HOME
 *
 * Prints ok/FAIL lines and timings; exit code 0 when every expectation held.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { AGENT_MODE, CODEX_MODEL, CODEX_OTHER_MODEL, env, install, launch, makeHome } from './agent.mjs';
import { COMPACTION_SUMMARY, startFakeModel, TITLE } from './fakeModel.mjs';
import { scenario, scriptRules } from './script.mjs';
import { proofLog } from '../proofLog.mjs';

const verbose = process.env.VERBOSE === '1';
const keep = process.env.KEEP === '1';
const { t0, say, expect, failures } = proofLog();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const withTimeout = (promise, ms, what) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`timed out after ${ms} ms: ${what}`)))]);
const short = (value, max = 600) => {
  const text =
    JSON.stringify(value, (k, v) =>
      typeof v === 'string' && v.length > 160 ? `${v.slice(0, 160)}…(${v.length})` : v,
    ) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

await install();
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-codex-ws-')));
const s = scenario(workspace);
fs.writeFileSync(s.edit.file, s.edit.before);
fs.writeFileSync(path.join(workspace, 'README.md'), '# real-agent test workspace\n'); // as run.mjs: the long command tails it
const fake = await startFakeModel({ rules: scriptRules(workspace), log: verbose ? undefined : () => {} });
const home = await makeHome({ workspace, baseUrl: fake.url });
const dumpFd = process.env.DUMP ? fs.openSync(process.env.DUMP, 'w') : undefined;
/** session/update kind -> first example (printed at the end). */
const kindsSeen = new Map();
/** fs/* and terminal/* requests the agent made. */
const clientCalls = [];
const agents = [];

/** Whether any process of the group `pid` is still there. */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until the group is gone; resolves to the ms it took, or undefined after `ms`. */
async function groupGone(pid, ms) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (!groupAlive(pid)) return Date.now() - start;
    await sleep(50);
  }
  return undefined;
}

/** Live processes whose command line is `command` (Linux), as the in-host test finds them. */
function commandPids(command) {
  const pids = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === command) {
        pids.push(Number(name));
      }
    } catch {}
  }
  return pids;
}

/** A path the agent may touch: inside the workspace, absolute. */
function inWorkspace(file) {
  const resolved = path.resolve(file);
  if (!path.isAbsolute(file) || (resolved !== workspace && !resolved.startsWith(workspace + path.sep))) {
    throw acp.RequestError.invalidParams({ path: file }, 'outside the workspace');
  }
  return resolved;
}

/** Client terminals (terminal/*): plain child processes, no shell, output collected. */
function terminalHandlers() {
  const terminals = new Map();
  let next = 0;
  const get = (id) => {
    const t = terminals.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  };
  return {
    create({ params }) {
      const cwd = params.cwd ? inWorkspace(params.cwd) : workspace;
      const child = spawn(params.command, params.args ?? [], {
        cwd,
        env: { ...process.env, ...Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value])) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const t = {
        child,
        output: '',
        truncated: false,
        limit: params.outputByteLimit ?? 1024 * 1024,
        exitStatus: undefined,
      };
      const take = (chunk) => {
        t.output += chunk;
        if (Buffer.byteLength(t.output) > t.limit) {
          t.output = t.output.slice(-t.limit);
          t.truncated = true;
        }
      };
      child.stdout.setEncoding('utf8').on('data', take);
      child.stderr.setEncoding('utf8').on('data', take);
      t.exited = new Promise((resolve) => {
        child.on('error', (error) => {
          take(String(error));
          t.exitStatus = { exitCode: 127, signal: null };
          resolve(t.exitStatus);
        });
        child.on('close', (code, signal) => {
          t.exitStatus = { exitCode: code, signal };
          resolve(t.exitStatus);
        });
      });
      const terminalId = `term-${++next}`;
      terminals.set(terminalId, t);
      return { terminalId };
    },
    output({ params }) {
      const t = get(params.terminalId);
      return { output: t.output, truncated: t.truncated, ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}) };
    },
    async waitForExit({ params }) {
      return get(params.terminalId).exited;
    },
    kill({ params }) {
      get(params.terminalId).child.kill('SIGTERM');
      return {};
    },
    release({ params }) {
      const t = get(params.terminalId);
      if (!t.exitStatus) t.child.kill('SIGKILL');
      terminals.delete(params.terminalId);
      return {};
    },
  };
}

/** The SDK's stdio stream with every message written to the dump (if DUMP is set). */
function dumped(stream, label) {
  if (dumpFd === undefined) return stream;
  const write = (dir, msg) =>
    fs.writeSync(
      dumpFd,
      JSON.stringify({ t: Date.now() - t0, at: new Date().toISOString(), agent: label, dir, msg }) + '\n',
    );
  const out = new TransformStream({
    transform(msg, c) {
      write('client->agent', msg);
      c.enqueue(msg);
    },
  });
  void out.readable.pipeTo(stream.writable).catch(() => {});
  return {
    writable: out.writable,
    readable: stream.readable.pipeThrough(
      new TransformStream({
        transform(msg, c) {
          write('agent->client', msg);
          c.enqueue(msg);
        },
      }),
    ),
  };
}

/** Starts one agent process and connects a client to it. */
function startAgent(label, mode = AGENT_MODE) {
  const { command, args } = launch();
  const spawnedAt = Date.now();
  const child = spawn(command, args, {
    cwd: workspace,
    env: { PATH: process.env.PATH, ...env({ home, mode }) },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stderr.setEncoding('utf8').on('data', (t) => verbose && process.stderr.write(`[${label} stderr] ${t}`));
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  /** answer: what the next permission request gets ('allow_once' or 'reject'); inTurn: a session/prompt is open. */
  const state = { updates: [], permissions: [], answer: 'allow_once', inTurn: false, outsideTurn: [] };
  const terminal = terminalHandlers();
  const logged = (method, handler) => (ctx) => {
    clientCalls.push({ agent: label, method, params: ctx.params });
    say(`${label}: agent called ${method} ${short(ctx.params, 300)}`);
    return handler(ctx);
  };
  const app = acp
    .client({ name: 'codex-sdk-proof' })
    .onNotification('session/update', ({ params }) => {
      const entry = { at: Date.now(), sessionId: params.sessionId, update: params.update };
      state.updates.push(entry);
      if (!state.inTurn) state.outsideTurn.push(entry);
      if (!kindsSeen.has(params.update.sessionUpdate)) kindsSeen.set(params.update.sessionUpdate, params.update);
      if (verbose) say(`${label}: update${state.inTurn ? '' : ' (outside a turn)'} ${short(params.update, 1500)}`);
    })
    .onRequest('session/request_permission', ({ params }) => {
      state.permissions.push(params);
      const rejects = params.options.filter((o) => o.kind.startsWith('reject'));
      const option =
        state.answer === 'reject'
          ? (rejects.find((o) => o.optionId === 'denied') ?? rejects[0])
          : params.options.find((o) => o.kind === state.answer);
      say(
        `${label}: permission asked for ${params.toolCall.kind} "${params.toolCall.title}" [${params.options.map((o) => `${o.optionId}:${o.kind}`).join(', ')}] -> ${option?.optionId}`,
      );
      return option
        ? { outcome: { outcome: 'selected', optionId: option.optionId } }
        : { outcome: { outcome: 'cancelled' } };
    })
    .onRequest(
      'fs/read_text_file',
      logged('fs/read_text_file', ({ params }) => {
        const lines = fs.readFileSync(inWorkspace(params.path), 'utf8').split('\n');
        const start = Math.max(0, (params.line ?? 1) - 1);
        return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join('\n') };
      }),
    )
    .onRequest(
      'fs/write_text_file',
      logged('fs/write_text_file', ({ params }) => {
        const file = inWorkspace(params.path);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, params.content);
        return {};
      }),
    )
    .onRequest('terminal/create', logged('terminal/create', terminal.create))
    .onRequest('terminal/output', logged('terminal/output', terminal.output))
    .onRequest('terminal/wait_for_exit', logged('terminal/wait_for_exit', terminal.waitForExit))
    .onRequest('terminal/kill', logged('terminal/kill', terminal.kill))
    .onRequest('terminal/release', logged('terminal/release', terminal.release));
  const connection = app.connect(
    dumped(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)), label),
  );
  const agent = {
    label,
    child,
    state,
    exited,
    spawnedAt,
    request: (method, params, ms = 60_000) =>
      withTimeout(connection.agent.request(method, params), ms, `${label} ${method}`),
  };
  agents.push(agent);
  return agent;
}

/** Waits until no update arrived for `quietMs` (updates may follow the prompt's answer). */
async function settle(agent, quietMs = 250, maxMs = 3000) {
  const start = Date.now();
  let count = -1;
  while (Date.now() - start < maxMs && count !== agent.state.updates.length) {
    count = agent.state.updates.length;
    await sleep(quietMs);
  }
}

/** One session/prompt with `answer` for its permission requests; returns what happened in it. */
async function turn(agent, sessionId, name, text, answer = 'allow_once') {
  const from = {
    updates: agent.state.updates.length,
    permissions: agent.state.permissions.length,
    calls: fake.messageLog().length,
  };
  agent.state.answer = answer;
  agent.state.inTurn = true;
  const started = Date.now();
  const result = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, 90_000);
  const answeredAt = Date.now();
  const ms = answeredAt - started;
  await settle(agent);
  agent.state.inTurn = false;
  const entries = agent.state.updates.slice(from.updates);
  const late = entries.filter((e) => e.at > answeredAt).map((e) => e.update.sessionUpdate);
  if (late.length) say(`${name}: updates after the prompt's answer: ${late.join(', ')}`);
  const updates = entries.map((e) => e.update);
  const chunks = updates.filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text');
  const tools = updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');
  say(
    `${name}: stopReason ${result.stopReason} in ${ms} ms; text ${JSON.stringify(chunks.map((u) => u.content.text).join(''))} in ${chunks.length} chunks`,
  );
  if (tools.length) {
    say(
      `${name}: tool updates ${tools.map((u) => `${u.sessionUpdate}(${[u.kind, u.status].filter(Boolean).join(' ')})`).join(', ')}`,
    );
  }
  return {
    result,
    ms,
    updates,
    tools,
    text: chunks.map((u) => u.content.text).join(''),
    chunks: chunks.length,
    permissions: agent.state.permissions.slice(from.permissions),
    /** The model requests of this turn, summarized. */
    calls: fake.messageLog().slice(from.calls),
  };
}

/** "kind x count, ..." of some updates. */
const countKinds = (updates) =>
  [...new Set(updates.map((u) => u.sessionUpdate))]
    .map((k) => `${k} x${updates.filter((u) => u.sessionUpdate === k).length}`)
    .join(', ');
const configValue = (options, id) => options?.find((o) => o.id === id)?.currentValue;
const lastRequest = () => fake.messageLog().at(-1);

/** Checks one allowed tool turn: one permission of `kind`, the tool call completed, the final text. */
function checkAllowedTool(t, step, kind) {
  expect(t.result.stopReason === 'end_turn', `${step.marker}: stopReason end_turn`);
  expect(
    t.permissions.length === 1 && t.permissions[0].toolCall.kind === kind,
    `${step.marker}: one permission request, kind ${kind} (got ${t.permissions.map((p) => p.toolCall.kind)})`,
  );
  const id = t.permissions[0]?.toolCall.toolCallId;
  expect(
    t.tools.some((u) => u.toolCallId === id && u.status === 'completed'),
    `${step.marker}: its tool call ${id} completed`,
  );
  expect(t.text === step.doneText, `${step.marker}: final text "${step.doneText}"`);
  expect(
    t.calls.some((c) => c.toolResults.some((o) => !o.isError)),
    `${step.marker}: the tool output went back to the model as a success`,
  );
  say(`permission request: ${short(t.permissions[0], 2500)}`);
  say(`tool call sequence: ${t.tools.map((u) => short(u, 1200)).join('\n    ')}`);
}

const INIT = {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientInfo: { name: 'codex-sdk-proof', version: '0.0.0' },
  // _meta.terminal_output: Codex then shows its own command output as `terminal` content.
  clientCapabilities: {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    _meta: { terminal_output: true },
  },
};

/** Closes stdin, waits; then SIGTERM to the leader only. Says what ended it. */
async function endByEofThenLeader(agent) {
  agent.child.stdin.end();
  let gone = await groupGone(agent.child.pid, 3000);
  say(
    `${agent.label}: stdin closed: ${gone === undefined ? 'still running after 3 s' : `process group gone after ${gone} ms`}`,
  );
  if (gone !== undefined) return true;
  const sent = Date.now();
  process.kill(agent.child.pid, 'SIGTERM');
  gone = await groupGone(agent.child.pid, 3000);
  const exit = await Promise.race([agent.exited, sleep(10)]);
  say(
    `${agent.label}: SIGTERM to the leader: ${gone === undefined ? 'group still running after 3 s' : `group gone after ${gone} ms`}${exit ? ` (leader: ${exit.signal ?? `exit ${exit.code}`} after ${exit.at - sent} ms)` : ''}`,
  );
  return gone !== undefined;
}

/** SIGTERM to the process group. */
async function endByGroupSigterm(agent) {
  const sent = Date.now();
  process.kill(-agent.child.pid, 'SIGTERM');
  const gone = await groupGone(agent.child.pid, 3000);
  const exit = await Promise.race([agent.exited, sleep(10)]);
  say(
    `${agent.label}: SIGTERM to the group: ${gone === undefined ? 'still running after 3 s' : `group gone after ${gone} ms`}${exit ? ` (leader: ${exit.signal ?? `exit ${exit.code}`} after ${exit.at - sent} ms)` : ''}`,
  );
  return gone !== undefined;
}

try {
  // --- first process: agent.mjs's mode (read-only) ------------------------------------------
  say(`agent: ${launch().command} ${launch().args.join(' ')}`);
  const first = startAgent('first');
  const init = await first.request('initialize', INIT);
  say(`initialize: ${short(init, 3000)}`);
  expect(
    init.agentInfo?.name === '@agentclientprotocol/codex-acp' && init.agentInfo?.title === 'Codex',
    `initialize: agent ${init.agentInfo?.name} "${init.agentInfo?.title}" ${init.agentInfo?.version}`,
  );
  expect(
    init.agentCapabilities?.loadSession === true &&
      init.agentCapabilities?.sessionCapabilities?.list &&
      init.agentCapabilities?.sessionCapabilities?.resume,
    'initialize: loadSession, session list and resume advertised',
  );
  const authIds = init.authMethods?.map((m) => m.id) ?? [];
  expect(
    authIds.includes('api-key') && authIds.includes('chat-gpt'),
    `initialize: auth methods ${init.authMethods?.map((m) => `${m.id}:${m.type ?? 'agent'}`).join(', ')} (none needed with config.toml's provider)`,
  );

  const created = await first.request('session/new', { cwd: workspace, mcpServers: [] });
  const sessionId = created.sessionId;
  say(`connect: spawn to session/new answered in ${Date.now() - first.spawnedAt} ms`);
  say(
    `session/new: ${short({ ...created, models: created.models && { currentModelId: created.models.currentModelId, availableModels: created.models.availableModels?.length } }, 4000)}`,
  );
  say(
    `session/new: config options ${created.configOptions?.map((o) => `${o.id}=${o.currentValue} [${o.options?.map((x) => x.value ?? x.group)}]`).join('; ')}`,
  );
  expect(
    configValue(created.configOptions, 'model') === CODEX_MODEL &&
      configValue(created.configOptions, 'reasoning_effort') === 'medium',
    `session/new: model ${configValue(created.configOptions, 'model')}, reasoning_effort ${configValue(created.configOptions, 'reasoning_effort')}`,
  );
  const modelOption = created.configOptions?.find((o) => o.id === 'model');
  expect(
    modelOption?.options?.some((o) => o.value === CODEX_OTHER_MODEL),
    `session/new: the model option offers ${CODEX_OTHER_MODEL}`,
  );
  expect(
    created.modes?.currentModeId === AGENT_MODE && configValue(created.configOptions, 'mode') === AGENT_MODE,
    `session/new: modes ${created.modes?.availableModes?.map((m) => m.id)}, current ${created.modes?.currentModeId} (INITIAL_AGENT_MODE), "mode" option ${configValue(created.configOptions, 'mode')}`,
  );

  // (a) streamed reply; after a new session's first turn codex-acp asks the model for a title.
  const a = await turn(first, sessionId, '(a) reply', s.reply.prompt);
  expect(a.result.stopReason === 'end_turn' && a.text === s.reply.text, '(a) reply: the fake text, end_turn');
  expect(a.chunks >= 3, `(a) reply: streamed in ${a.chunks} agent_message_chunk updates (>= 3)`);
  expect(
    a.updates.some((u) => u.sessionUpdate === 'agent_thought_chunk'),
    '(a) reply: the reasoning summary as agent_thought_chunk',
  );
  expect(a.permissions.length === 0, '(a) reply: no permission request');
  // The title is asked for after the turn's answer, unawaited: wait for it (a few seconds at most).
  const titles = () =>
    first.state.updates
      .filter((x) => x.update.sessionUpdate === 'session_info_update' && x.update.title)
      .map((x) => x.update.title);
  const titleRequests = () => fake.messageLog().filter((c) => c.answered === 'title');
  for (let waited = 0; waited < 10_000 && titles().at(-1) !== TITLE; waited += 100) await sleep(100);
  expect(
    titleRequests().length === 1 && titles().at(-1) === TITLE,
    `(a) title: ${titleRequests().length} title request (${titleRequests().map((c) => c.model)}), session_info_update titles ${JSON.stringify(titles())}`,
  );

  // (b) create, (c) edit: apply_patch, allowed
  const b = await turn(first, sessionId, '(b) create', s.create.marker);
  checkAllowedTool(b, s.create, 'edit');
  expect(
    fs.existsSync(s.create.file) && fs.readFileSync(s.create.file, 'utf8') === s.create.content,
    '(b) create: greeting.txt on disk with the patch content',
  );
  const c = await turn(first, sessionId, '(c) edit', s.edit.marker);
  checkAllowedTool(c, s.edit, 'edit');
  expect(fs.readFileSync(s.edit.file, 'utf8') === s.edit.after, '(c) edit: notes.txt on disk as edited');
  const editCall = c.tools.find(
    (u) => u.sessionUpdate === 'tool_call' && u.toolCallId === c.permissions[0]?.toolCall.toolCallId,
  );
  const diff = editCall?.content?.find((x) => x.type === 'diff');
  expect(
    diff?.path === s.edit.file && diff?.oldText === s.edit.before && diff?.newText === s.edit.after,
    '(c) edit: the tool_call before the permission shows the diff (oldText/newText of the whole file)',
  );
  expect(
    !c.permissions[0]?.toolCall.content && c.permissions[0]?.toolCall.locations?.[0]?.path === s.edit.file,
    `(c) edit: the permission itself names the file, no content ("${c.permissions[0]?.toolCall.title}")`,
  );

  // (d) shell command, allowed
  const d = await turn(first, sessionId, '(d) shell', s.shell.marker);
  checkAllowedTool(d, s.shell, 'execute');
  expect(
    fs.existsSync(s.shell.file) && fs.readFileSync(s.shell.file, 'utf8') === s.shell.fileContent,
    '(d) shell: ran.txt on disk',
  );
  const asked = d.permissions[0]?.toolCall;
  expect(
    asked?.rawInput?.command === s.shell.command && asked?.rawInput?.cwd === workspace,
    `(d) shell: rawInput.command is the command line (a string), with cwd ${short(asked?.rawInput)}`,
  );
  const started = d.tools.find((u) => u.sessionUpdate === 'tool_call');
  const terminalId = started?.content?.find((x) => x.type === 'terminal')?.terminalId;
  expect(
    terminalId && started._meta?.terminal_info?.terminal_id === terminalId,
    `(d) shell: terminal content with Codex's own id ${terminalId} and _meta.terminal_info`,
  );
  const ended = d.tools.find((u) => u._meta?.terminal_exit);
  expect(
    ended?._meta.terminal_exit.exit_code === 0,
    `(d) shell: _meta.terminal_exit ${short(ended?._meta?.terminal_exit)}`,
  );
  expect(
    d.calls.at(-1)?.toolResults.some((o) => o.text.includes(s.shell.output)),
    '(d) shell: the model got the command output',
  );

  // (e) shell command, rejected
  const e = await turn(first, sessionId, '(e) refuse', s.refuse.marker, 'reject');
  expect(e.permissions.length === 1, '(e) refuse: one permission request');
  say(
    `(e) refuse: reject options offered: ${e.permissions[0]?.options.filter((o) => o.kind.startsWith('reject')).map((o) => o.optionId)}`,
  );
  expect(!fs.existsSync(s.refuse.file), '(e) refuse: refused.txt not created');
  expect(e.result.stopReason === 'cancelled', `(e) refuse: Codex aborts the turn (stopReason ${e.result.stopReason})`);
  expect(
    e.calls.length === 1,
    `(e) refuse: no model request after the rejection in this turn (${e.calls.length} in all)`,
  );
  const refusedId = e.permissions[0]?.toolCall.toolCallId;
  const refusedEnd = e.tools.findLast((u) => u.toolCallId === refusedId);
  expect(refusedEnd?.status === 'failed', `(e) refuse: its tool call ends ${refusedEnd?.status}`);
  say(`(e) refuse: updates for ${refusedId}: ${short(e.tools.filter((u) => u.toolCallId === refusedId)) || 'none'}`);

  // Model and reasoning effort: the answer, then the next model request.
  let mark = first.state.updates.length;
  const setModel = await first.request('session/set_config_option', {
    sessionId,
    configId: 'model',
    value: CODEX_OTHER_MODEL,
  });
  await settle(first);
  say(
    `set_config_option model=${CODEX_OTHER_MODEL}: answer ${short(setModel.configOptions?.map((o) => `${o.id}=${o.currentValue}${o.id === 'reasoning_effort' ? ` [${o.options?.map((x) => x.value)}]` : ''}`))}; updates ${short(first.state.updates.slice(mark).map((x) => x.update.sessionUpdate))}`,
  );
  expect(
    configValue(setModel.configOptions, 'model') === CODEX_OTHER_MODEL,
    'set_config_option model: answered with the new model',
  );
  const setEffort = await first.request('session/set_config_option', {
    sessionId,
    configId: 'reasoning_effort',
    value: 'high',
  });
  say(
    `set_config_option reasoning_effort=high: answer ${short(setEffort.configOptions?.map((o) => `${o.id}=${o.currentValue}`))}`,
  );
  expect(
    configValue(setEffort.configOptions, 'reasoning_effort') === 'high',
    'set_config_option reasoning_effort: answered with high',
  );
  const a2 = await turn(first, sessionId, '(a2) reply after the switches', s.reply.prompt);
  expect(a2.text === s.reply.text, '(a2) reply: the fake text');
  expect(
    a2.calls.length === 2 && a2.calls[0].answered === 'compaction' && a2.calls[0].model === CODEX_MODEL,
    `(a2) the model change first compacts the history with the old model: ${short(a2.calls.map((x) => `${x.model}:${x.answered}`))}`,
  );
  expect(
    a2.calls[1]?.userTexts.some((t) => t.includes(s.create.marker)) &&
      JSON.stringify(fake.requests.at(-1).body.input).includes(COMPACTION_SUMMARY),
    '(a2) the new model gets the earlier user texts and the summary',
  );
  expect(
    lastRequest()?.model === CODEX_OTHER_MODEL && lastRequest()?.reasoning?.effort === 'high',
    `(a2) the model request used model ${lastRequest()?.model}, effort ${lastRequest()?.reasoning?.effort}`,
  );
  const aborted = a2.calls.flatMap((x) => x.toolResults).find((o) => o.isError);
  expect(
    aborted !== undefined,
    `(a2) the model request carried the rejected call's output: ${JSON.stringify(aborted?.text)}`,
  );
  expect(
    lastRequest()?.tools.includes('functions.exec(custom)') && !lastRequest()?.tools.includes('exec_command'),
    `(a2) ${CODEX_OTHER_MODEL} runs in code mode: tools ${short(lastRequest()?.tools)}`,
  );

  // (f) the same tools in code mode: the fake calls `exec`, whose script calls apply_patch / exec_command.
  fs.rmSync(s.create.file);
  fs.rmSync(s.shell.file);
  const f1 = await turn(first, sessionId, '(f1) create in code mode', s.create.marker);
  expect(f1.calls[0]?.answered === 'call:exec:apply_patch', `(f1) the fake answered ${f1.calls[0]?.answered}`);
  checkAllowedTool(f1, s.create, 'edit');
  expect(
    fs.existsSync(s.create.file) && fs.readFileSync(s.create.file, 'utf8') === s.create.content,
    '(f1) greeting.txt on disk again',
  );
  const f2 = await turn(first, sessionId, '(f2) shell in code mode', s.shell.marker);
  expect(f2.calls[0]?.answered === 'call:exec:exec_command', `(f2) the fake answered ${f2.calls[0]?.answered}`);
  checkAllowedTool(f2, s.shell, 'execute');
  expect(
    fs.existsSync(s.shell.file) && fs.readFileSync(s.shell.file, 'utf8') === s.shell.fileContent,
    '(f2) ran.txt on disk again',
  );
  expect(
    f2.permissions[0]?.toolCall.rawInput?.command === s.shell.command,
    `(f2) rawInput.command ${short(f2.permissions[0]?.toolCall.rawInput)}`,
  );

  // Modes: session/set_mode, then the "mode" config option back.
  mark = first.state.updates.length;
  const setMode = await first.request('session/set_mode', { sessionId, modeId: 'workspace-write' });
  await settle(first);
  const afterMode = first.state.updates.slice(mark).map((x) => x.update);
  say(
    `session/set_mode workspace-write: answer ${short(setMode)}; updates ${short(
      afterMode.map((u) =>
        u.sessionUpdate === 'config_option_update'
          ? { config_option_update: u.configOptions.map((o) => `${o.id}=${o.currentValue}`) }
          : u,
      ),
      800,
    )}`,
  );
  const modeUpdate = afterMode.findLast(
    (u) => u.sessionUpdate === 'current_mode_update' || u.sessionUpdate === 'config_option_update',
  );
  expect(
    modeUpdate?.currentModeId === 'workspace-write' ||
      configValue(modeUpdate?.configOptions, 'mode') === 'workspace-write',
    `session/set_mode workspace-write: confirmed by ${afterMode.map((u) => u.sessionUpdate).join(', ') || 'nothing'}`,
  );
  mark = first.state.updates.length;
  const setModeOption = await first.request('session/set_config_option', {
    sessionId,
    configId: 'mode',
    value: AGENT_MODE,
  });
  await settle(first);
  say(
    `set_config_option mode=${AGENT_MODE}: answer ${short(setModeOption.configOptions?.map((o) => `${o.id}=${o.currentValue}`))}; updates ${short(first.state.updates.slice(mark).map((x) => x.update.sessionUpdate))}`,
  );
  expect(
    configValue(setModeOption.configOptions, 'mode') === AGENT_MODE,
    `set_config_option mode=${AGENT_MODE}: answered with it`,
  );

  const listed = await first.request('session/list', { cwd: workspace });
  say(`session/list: ${short(listed, 1000)}`);
  expect(
    listed.sessions?.some((x) => x.sessionId === sessionId),
    'session/list: the session is listed',
  );
  say(`first: updates outside a turn: ${short(first.state.outsideTurn.map((x) => x.update.sessionUpdate))}`);
  expect(await endByEofThenLeader(first), 'first process ended (stdin EOF, else SIGTERM to the leader)');

  // --- second process, same HOME, codex-acp's default mode: load, resume -------------------
  const second = startAgent('second', 'agent');
  await second.request('initialize', INIT);
  const fresh = await second.request('session/new', { cwd: workspace, mcpServers: [] });
  say(`second: connect (spawn to session/new answered) in ${Date.now() - second.spawnedAt} ms`);
  expect(
    fresh.modes?.currentModeId === 'agent' && configValue(fresh.configOptions, 'mode') === 'agent',
    `second: session/new in mode ${fresh.modes?.currentModeId} ("mode" option ${configValue(fresh.configOptions, 'mode')})`,
  );
  const listed2 = await second.request('session/list', {});
  say(`second: session/list: ${short(listed2.sessions?.map((x) => ({ id: x.sessionId, title: x.title })))}`);
  expect(
    listed2.sessions?.some((x) => x.sessionId === sessionId && x.title === TITLE),
    `second: session/list (no cwd) lists the first session with its title (${listed2.sessions?.length} in all)`,
  );
  mark = second.state.updates.length;
  const loadStart = Date.now();
  const loaded = await second.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  await settle(second);
  const replay = second.state.updates
    .slice(mark)
    .filter((x) => x.sessionId === sessionId)
    .map((x) => x.update);
  say(
    `second: session/load in ${Date.now() - loadStart} ms: answer ${short({ modes: loaded.modes?.currentModeId, config: loaded.configOptions?.map((o) => `${o.id}=${o.currentValue}`) })}; replayed ${replay.length} updates: ${countKinds(replay)}`,
  );
  const replayedUser = replay
    .filter((u) => u.sessionUpdate === 'user_message_chunk')
    .map((u) => u.content.text)
    .join('\n');
  expect(
    replayedUser.includes(s.create.marker) && replay.some((u) => u.sessionUpdate === 'agent_message_chunk'),
    'session/load: history replayed (user and agent messages)',
  );
  const l = await turn(second, sessionId, '(l) reply in the loaded session', s.reply.prompt);
  expect(l.text === s.reply.text, '(l) reply in the loaded session');
  expect(
    JSON.stringify(fake.requests.at(-1).body.input).includes(s.create.marker),
    '(l) the model request carries the earlier conversation',
  );
  say(`(l) the model requests: ${short(l.calls.map((x) => `${x.model}/${x.reasoning?.effort}:${x.answered}`))}`);
  mark = second.state.updates.length;
  const resumed = await second.request('session/resume', { sessionId, cwd: workspace, mcpServers: [] });
  await settle(second);
  const afterResume = second.state.updates.slice(mark).map((x) => x.update);
  say(
    `second: session/resume: answer ${short({ modes: resumed.modes?.currentModeId, config: resumed.configOptions?.map((o) => `${o.id}=${o.currentValue}`) })}; updates ${countKinds(afterResume) || 'none'}`,
  );
  expect(
    !afterResume.some((u) => u.sessionUpdate === 'user_message_chunk'),
    'session/resume: answered, no history replay',
  );
  say(`second: updates outside a turn: ${short(second.state.outsideTurn.map((x) => x.update.sessionUpdate))}`);

  // (g) a long command, allowed (mode "agent": by the auto-reviewer, not the client), still
  // running when the agent's group gets SIGTERM (Disconnect).
  second.state.answer = 'allow_once';
  second.state.inTurn = true;
  const longFrom = { permissions: second.state.permissions.length, calls: fake.messageLog().length };
  const longTurn = second
    .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: s.long.marker }] }, 90_000)
    .catch((error) => error);
  for (let waited = 0; waited < 30_000 && commandPids(s.long.process).length === 0; waited += 100) await sleep(100);
  const longPids = commandPids(s.long.process);
  const longGroups = longPids.map((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2];
    } catch {
      return '?';
    }
  });
  expect(
    longPids.length > 0,
    `(g) \`${s.long.process}\` runs (pids ${longPids}, process groups ${longGroups}; the agent's ${second.child.pid})`,
  );
  const longCalls = fake.messageLog().slice(longFrom.calls);
  expect(
    second.state.permissions.length === longFrom.permissions && longCalls.some((x) => x.answered === 'review'),
    `(g) no permission request; the model requests: ${short(longCalls.map((x) => `${x.model}:${x.answered}`))}`,
  );
  expect(await endByGroupSigterm(second), 'second process ended on SIGTERM to its group');
  await sleep(200);
  expect(
    commandPids(s.long.process).length === 0,
    `(g) \`${s.long.process}\` ended with the agent (left: ${commandPids(s.long.process)})`,
  );
  say(`(g) the prompt's end: ${short(await Promise.race([longTurn, sleep(100).then(() => 'unanswered')]))}`);
} catch (error) {
  failures.push(String(error?.stack ?? error));
  say(`error: ${error?.stack ?? error}`);
} finally {
  for (const agent of agents) {
    if (groupAlive(agent.child.pid)) {
      try {
        process.kill(-agent.child.pid, 'SIGTERM');
      } catch {}
      if ((await groupGone(agent.child.pid, 1000)) === undefined) {
        try {
          process.kill(-agent.child.pid, 'SIGKILL');
        } catch {}
      }
    }
  }
  await fake.close();
  if (process.env.FAKE_DUMP) fs.writeFileSync(process.env.FAKE_DUMP, JSON.stringify(fake.requests, null, 1));
  if (dumpFd !== undefined) fs.closeSync(dumpFd);
  say(`session/update kinds seen: ${[...kindsSeen.keys()].join(', ')}`);
  if (verbose) for (const [kind, example] of kindsSeen) say(`  ${kind}: ${short(example, 800)}`);
  say(`fs/* and terminal/* requests from the agent: ${clientCalls.length ? short(clientCalls, 2000) : 'none'}`);
  const unknown = fake.requests.filter((r) => r.summary.unknown).map((r) => `${r.method} ${r.path}`);
  say(
    `requests to the fake: ${fake.requests.length} (${[...new Set(fake.requests.map((r) => `${r.method} ${r.path}`))].join(', ')})${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
  );
  if (keep) say(`kept: workspace ${workspace}, HOME ${home}`);
  else {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}
say(failures.length ? `FAILED: ${failures.length}` : 'all expectations held');
process.exit(failures.length ? 1 : 0);
