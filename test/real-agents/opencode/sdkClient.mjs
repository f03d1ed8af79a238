/**
 * Proof outside VS Code: a plain ACP SDK client drives OpenCode (`opencode acp`, agent.mjs)
 * through whole turns against the fake Chat Completions endpoint (fakeModel.mjs, script.mjs).
 * The client offers fs/read_text_file, fs/write_text_file (inside the workspace only) and
 * terminals (child_process.spawn without a shell).
 *
 * First agent process: initialize; session/new; (a) a streamed reply; (b) a new file, permission
 * allowed; (c) an edit, allowed; (d) a shell command, allowed; (e) a shell command, rejected;
 * mode and model switching (config options `mode` and `model`); a second session; session/list;
 * session/close; then stdin closed: does the process group exit by itself?
 * Second process, same HOME: session/list, session/load (replay), session/resume (no replay) and
 * a turn in the resumed session; then SIGTERM to the leader. Third: SIGTERM to the group.
 *
 *   node test/real-agents/opencode/sdkClient.mjs
 *   VERBOSE=1 ...                     # every session/update, agent stderr, fake-model log
 *   DUMP=/tmp/opencode-acp.jsonl ...  # every JSON-RPC message, both directions, with time
 *                                     # (then the fake model's requests, dir "agent->model")
 *   KEEP=1 ...                        # keep the workspace and HOME (OpenCode's log: HOME/.local/share/opencode/log)
 *
 * Prints ok/FAIL lines and the times (connect = spawn to session/new answered, each turn);
 * exit code 0 when every expectation held.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { env, install, launch, makeHome } from './agent.mjs';
import { startFakeModel } from './fakeModel.mjs';
import { scenario, scriptRules } from './script.mjs';
import { proofLog } from '../proofLog.mjs';

const verbose = process.env.VERBOSE === '1';
const dump = process.env.DUMP ? fs.createWriteStream(process.env.DUMP) : undefined;
const { t0, say, expect, failures } = proofLog();
const short = (value, max = 300) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}...` : text;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const withTimeout = (promise, ms, what) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`timed out after ${ms} ms: ${what}`)))]);

await install();
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-opencode-ws-')));
const s = scenario(workspace);
fs.writeFileSync(s.edit.file, s.edit.original);
const fake = await startFakeModel({
  rules: scriptRules(workspace),
  log: verbose ? (line) => say(`[fake] ${line}`) : () => {},
});
const home = await makeHome({ workspace, baseUrl: fake.url });

// --- what the client offers: files inside the workspace, terminals without a shell -----------

function inWorkspace(file) {
  const resolved = path.resolve(file);
  if (resolved !== workspace && !resolved.startsWith(workspace + path.sep)) {
    throw acp.RequestError.invalidParams({ path: file }, 'outside the workspace');
  }
  return resolved;
}

const terminals = new Map();
let terminalCount = 0;

function createTerminal({ command, args = [], cwd, env: vars = [], outputByteLimit }) {
  const terminalId = `term-${++terminalCount}`;
  const child = spawn(command, args, {
    cwd: cwd ? inWorkspace(cwd) : workspace,
    env: { ...process.env, ...Object.fromEntries(vars.map((v) => [v.name, v.value])) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const term = { child, output: '', truncated: false, exit: undefined };
  const limit = outputByteLimit ?? 1024 * 1024;
  const collect = (chunk) => {
    term.output += chunk.toString('utf8');
    if (Buffer.byteLength(term.output) > limit) {
      term.output = term.output.slice(-limit);
      term.truncated = true;
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  term.exited = new Promise((resolve) => {
    child.on('error', (error) => {
      collect(Buffer.from(String(error.message)));
      resolve((term.exit = { exitCode: 127, signal: null }));
    });
    child.on('exit', (code, signal) => resolve((term.exit = { exitCode: code, signal })));
  });
  terminals.set(terminalId, term);
  return { terminalId };
}

function terminal(terminalId) {
  const term = terminals.get(terminalId);
  if (!term) throw acp.RequestError.resourceNotFound(terminalId);
  return term;
}

// --- one agent process ------------------------------------------------------------------------

/** Process ids whose process group is `pgid` (from /proc). */
function groupMembers(pgid) {
  const out = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(Number(name));
    } catch {}
  }
  return out;
}

/** Waits up to `ms` for the whole group to be gone; returns ms taken, or undefined. */
async function groupGone(pgid, since, ms) {
  while (Date.now() - since < ms) {
    if (groupMembers(pgid).length === 0) return Date.now() - since;
    await sleep(50);
  }
  return undefined;
}

/** Everything the client saw from one agent process. */
function startAgent(label) {
  const { command, args } = launch();
  const spawnedAt = Date.now();
  const child = spawn(command, args, {
    cwd: workspace,
    env: { PATH: process.env.PATH, ...env({ home, baseUrl: fake.url, workspace }) },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const agent = {
    label,
    child,
    spawnedAt,
    /** What the client is doing: a request label, or 'idle' (updates then are outside a turn). */
    phase: 'connect',
    lastAnswerAt: spawnedAt,
    updates: [],
    permissions: [],
    /** fs/* and terminal/* requests: { method, params }. */
    clientCalls: [],
    /** What the next permission request is answered with: an option kind, or 'reject'. */
    answer: 'allow_once',
    exit: undefined,
  };
  agent.exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve((agent.exit = { code, signal, at: Date.now() }))),
  );
  child.stderr.setEncoding('utf8').on('data', (t) => verbose && process.stderr.write(`[${label} stderr] ${t}`));
  const record = (method, handler) => (ctx) => {
    const call = { method, params: ctx.params, phase: agent.phase };
    agent.clientCalls.push(call);
    if (verbose) say(`${label} <- ${method} ${short(ctx.params)}`);
    return handler(ctx.params, call);
  };
  const app = acp
    .client({ name: 'opencode-sdk-proof' })
    .onNotification('session/update', ({ params }) => {
      agent.updates.push({
        sessionId: params.sessionId,
        update: params.update,
        phase: agent.phase,
        msAfterAnswer: Date.now() - agent.lastAnswerAt,
      });
      if (verbose) say(`${label} update ${short(params.update, 400)}`);
    })
    .onRequest('session/request_permission', ({ params }) => {
      agent.permissions.push({ params, phase: agent.phase });
      const option = params.options.find((o) =>
        agent.answer === 'reject' ? o.kind.startsWith('reject') : o.kind === agent.answer,
      );
      say(
        `permission asked: ${params.toolCall.title} (${params.toolCall.kind}), options ${params.options.map((o) => o.kind).join(' ')}; answering ${option.kind}`,
      );
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    })
    .onRequest(
      'fs/read_text_file',
      record('fs/read_text_file', ({ path: file, line, limit }) => {
        const lines = fs.readFileSync(inWorkspace(file), 'utf8').split('\n');
        const from = Math.max(0, (line ?? 1) - 1);
        return { content: lines.slice(from, limit ? from + limit : undefined).join('\n') };
      }),
    )
    .onRequest(
      'fs/write_text_file',
      record('fs/write_text_file', ({ path: file, content }, call) => {
        // Did the agent write the file itself before asking us to?
        call.alreadyOnDisk = fs.existsSync(inWorkspace(file)) && fs.readFileSync(file, 'utf8') === content;
        fs.mkdirSync(path.dirname(inWorkspace(file)), { recursive: true });
        fs.writeFileSync(inWorkspace(file), content);
        return {};
      }),
    )
    .onRequest('terminal/create', record('terminal/create', createTerminal))
    .onRequest(
      'terminal/output',
      record('terminal/output', ({ terminalId }) => {
        const term = terminal(terminalId);
        return { output: term.output, truncated: term.truncated, exitStatus: term.exit ?? null };
      }),
    )
    .onRequest(
      'terminal/wait_for_exit',
      record('terminal/wait_for_exit', ({ terminalId }) => terminal(terminalId).exited),
    )
    .onRequest(
      'terminal/kill',
      record('terminal/kill', ({ terminalId }) => {
        terminal(terminalId).child.kill('SIGTERM');
        return {};
      }),
    )
    .onRequest(
      'terminal/release',
      record('terminal/release', ({ terminalId }) => {
        terminal(terminalId).child.kill('SIGKILL');
        terminals.delete(terminalId);
        return {};
      }),
    );
  const stdio = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const tap = (dir) =>
    new TransformStream({
      transform(message, controller) {
        dump?.write(JSON.stringify({ agent: label, dir, ms: Date.now() - t0, message }) + '\n');
        controller.enqueue(message);
      },
    });
  const out = tap('client->agent');
  void out.readable.pipeTo(stdio.writable).catch(() => {});
  agent.connection = app.connect({
    writable: out.writable,
    readable: stdio.readable.pipeThrough(tap('agent->client')),
  });
  /** A request to the agent, labelled for the update log. */
  agent.request = async (method, params, ms = 60_000) => {
    agent.phase = method;
    try {
      return await withTimeout(agent.connection.agent.request(method, params), ms, `${label} ${method}`);
    } finally {
      agent.phase = 'idle';
      agent.lastAnswerAt = Date.now();
    }
  };
  return agent;
}

async function initialize(agent) {
  return agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientInfo: { name: 'opencode-sdk-proof', version: '0.0.0' },
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
}

/** One prompt turn: its result, time, and what arrived meanwhile (updates until 300 ms after). */
async function turn(agent, sessionId, label, text, answer = 'allow_once') {
  agent.answer = answer;
  const marks = {
    updates: agent.updates.length,
    permissions: agent.permissions.length,
    calls: agent.clientCalls.length,
    model: fake.messageLog().length,
  };
  const started = Date.now();
  const result = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, 120_000);
  const ms = Date.now() - started;
  await sleep(300); // late updates (seen with real agents: they may follow the response)
  const updates = agent.updates.slice(marks.updates).map((u) => u.update);
  const got = {
    result,
    ms,
    updates,
    text: updates
      .filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text')
      .map((u) => u.content.text),
    tools: updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update'),
    permissions: agent.permissions.slice(marks.permissions).map((p) => p.params),
    calls: agent.clientCalls.slice(marks.calls),
    model: fake.messageLog().slice(marks.model),
  };
  say(
    `turn ${label}: stopReason ${result.stopReason} in ${ms} ms; text ${JSON.stringify(got.text.join(''))} (${got.text.length} chunks); model requests ${got.model.map((m) => m.answered).join(', ')}`,
  );
  say(
    `  tool updates: ${got.tools.map((u) => `${u.sessionUpdate}(${[u.kind, u.status].filter(Boolean).join(' ')})`).join(', ') || 'none'}`,
  );
  if (got.calls.length) {
    say(`  client calls: ${got.calls.map((c) => `${c.method} ${short(c.params, 160)}`).join('; ')}`);
  }
  return got;
}

/** OpenCode writes files itself and also calls fs/write_text_file: in which order? */
function sayWrites(label, got) {
  const writes = got.calls.filter((x) => x.method === 'fs/write_text_file');
  say(
    `  ${label} fs/write_text_file calls: ${writes.length}; the file had that content already when the call came: ${writes.map((x) => x.alreadyOnDisk).join(', ')}`,
  );
}

const configValue = (options, id) => options?.find((o) => o.id === id)?.currentValue;

/** Ends the agent: closes stdin and waits for the group, then SIGTERM and SIGKILL to the group. */
async function stop(agent) {
  if (agent.exit === undefined) {
    try {
      process.kill(-agent.child.pid, 'SIGTERM');
    } catch {}
    if ((await groupGone(agent.child.pid, Date.now(), 3000)) === undefined) {
      try {
        process.kill(-agent.child.pid, 'SIGKILL');
      } catch {}
    }
  }
  await agent.exited;
}

/** How the process group ends after `how` (stdin EOF, SIGTERM to the leader, or to the group). */
async function measureExit(agent, how) {
  const pid = agent.child.pid;
  const before = groupMembers(pid);
  const since = Date.now();
  if (how === 'stdin EOF') agent.child.stdin.end();
  else if (how === 'SIGTERM to the leader') process.kill(pid, 'SIGTERM');
  else process.kill(-pid, 'SIGTERM');
  const leader = await Promise.race([agent.exited, sleep(10_000)]);
  const gone = await groupGone(pid, since, 10_000);
  say(
    `${agent.label}: ${how} (group of ${before.length} processes): leader ${leader ? `exited (${leader.signal ?? `code ${leader.code}`}) after ${leader.at - since} ms` : 'still running after 10 s'}, group ${gone === undefined ? `still has ${groupMembers(pid).length} processes after 10 s` : `gone after ${gone} ms`}`,
  );
  return { leader, gone };
}

const agents = [];
try {
  // --- first process: the scenario ---------------------------------------------------------
  const first = startAgent('agent1');
  agents.push(first);
  const init = await initialize(first);
  say(
    `initialize after ${Date.now() - first.spawnedAt} ms: ${init.agentInfo?.name} ${init.agentInfo?.version}; agentCapabilities ${short(init.agentCapabilities)}; authMethods ${short(init.authMethods)}`,
  );
  const caps = init.agentCapabilities ?? {};
  const session = await first.request('session/new', { cwd: workspace, mcpServers: [] });
  const connectMs = Date.now() - first.spawnedAt;
  say(
    `connect (spawn to session/new answered): ${connectMs} ms; session ${session.sessionId}; modes ${short(session.modes)}; models ${short(session.models)}; configOptions ${short(session.configOptions?.map((o) => `${o.id}=${o.currentValue} [${o.options.map((v) => v.value).join(' ')}]`))}`,
  );
  const sid = session.sessionId;

  // (a) a streamed reply
  const a = await turn(first, sid, '(a) reply', s.reply.prompt);
  expect(
    a.result.stopReason === 'end_turn' && a.text.join('') === s.reply.text,
    "(a) the reply is the fake model's text",
  );
  expect(
    a.text.length >= s.reply.minChunks,
    `(a) streamed in ${a.text.length} agent_message_chunk updates (>= ${s.reply.minChunks})`,
  );

  // (b) a new file, allowed
  const b = await turn(first, sid, '(b) write', `${s.write.marker}, please.`);
  expect(
    b.permissions.length === 1 && b.permissions[0].toolCall.kind === 'edit',
    `(b) one permission request for an edit (got ${b.permissions.length})`,
  );
  expect(
    fs.existsSync(s.write.file) && fs.readFileSync(s.write.file, 'utf8') === s.write.content,
    '(b) greeting.txt written with the scripted content',
  );
  expect(b.text.join('') === s.write.doneText, '(b) the agent reports success');
  expect(b.tools.at(-1)?.status === 'completed', '(b) the edit tool call ends completed');
  sayWrites('(b)', b);

  // (c) an edit of an existing file, allowed
  const c = await turn(first, sid, '(c) edit', `${s.edit.marker}, please.`);
  expect(
    c.permissions.length === 1 && c.permissions[0].toolCall.kind === 'edit',
    `(c) one permission request for the edit (got ${c.permissions.length})`,
  );
  expect(fs.readFileSync(s.edit.file, 'utf8') === s.edit.edited, '(c) notes.txt edited on disk');
  expect(c.text.join('') === s.edit.doneText, '(c) the agent reports success');
  sayWrites('(c)', c);

  // (d) a shell command, allowed
  const d = await turn(first, sid, '(d) bash', `${s.bash.marker}, please.`);
  expect(
    d.permissions.length === 1 && d.permissions[0].toolCall.kind === 'execute',
    `(d) one permission request for a command (got ${d.permissions.length})`,
  );
  expect(
    fs.existsSync(s.bash.file) && fs.readFileSync(s.bash.file, 'utf8') === s.bash.fileContent,
    '(d) ran.txt written by the command',
  );
  const bashResult = d.model
    .filter((m) => m.lastRole === 'tool')
    .at(-1)
    ?.toolResults.at(-1);
  expect(
    bashResult?.text.includes(s.bash.output) && !bashResult.isError,
    `(d) the command's output went back to the model: ${short(bashResult?.text, 120)}`,
  );
  expect(d.text.join('') === s.bash.doneText, '(d) the agent reports success');
  expect(JSON.stringify(d.tools).includes(s.bash.output), '(d) the tool call updates carry the command output');

  // (e) a shell command, rejected
  const e = await turn(first, sid, '(e) rejected', `${s.refused.marker}, please.`, 'reject');
  expect(e.permissions.length === 1, `(e) one permission request (got ${e.permissions.length})`);
  expect(!fs.existsSync(s.refused.file), '(e) forbidden.txt not created');
  expect(e.tools.at(-1)?.status === 'failed', `(e) the tool call ends failed (last status ${e.tools.at(-1)?.status})`);
  // OpenCode ends the turn on a rejection without asking the model again: the model sees the
  // rejection with the next prompt (checked after the model switch below).
  say(
    `  (e) after the rejection: model requests in this turn ${e.model.map((m) => m.answered).join(', ')}; text ${JSON.stringify(e.text.join(''))}; tool content ${short(e.tools.at(-1)?.content)}`,
  );
  expect(e.result.stopReason === 'end_turn', '(e) the turn ends normally');

  // Mode switching: the config option `mode` (no legacy `modes` in session/new)
  const modeOption = session.configOptions?.find((o) => o.category === 'mode');
  if (
    expect(
      modeOption?.options.some((o) => o.value === 'plan'),
      'session/new offers a mode config option with `plan`',
    )
  ) {
    const other = 'plan';
    const marks = first.updates.length;
    const set = await first.request('session/set_config_option', {
      sessionId: sid,
      configId: modeOption.id,
      value: other,
    });
    await sleep(300);
    say(
      `set_config_option ${modeOption.id}=${other}: answer ${short(set, 500)}; updates ${short(
        first.updates.slice(marks).map((u) => u.update),
        400,
      )}`,
    );
    expect(
      configValue(set.configOptions, modeOption.id) === other,
      `mode switched to ${other} (in the answer's configOptions)`,
    );
    // OpenCode tells the model in the user's message (a "Plan Mode" system reminder); it offers the same tools.
    const inMode = await turn(first, sid, `(f) in mode ${other}`, s.reply.prompt);
    const main = inMode.model.find((m) => m.tools.length > 0);
    expect(
      /plan mode/i.test(main?.lastUserText ?? ''),
      `the model is told about mode ${other} (tools offered: ${main?.tools.join(' ')})`,
    );
    const back = await first.request('session/set_config_option', {
      sessionId: sid,
      configId: modeOption.id,
      value: modeOption.currentValue,
    });
    expect(
      configValue(back.configOptions, modeOption.id) === modeOption.currentValue,
      `mode switched back to ${modeOption.currentValue}`,
    );
    // Not advertised (no `modes` in session/new), but answered: does it switch?
    const legacy = await first.request('session/set_mode', { sessionId: sid, modeId: other }).then(
      (r) => ({ result: r }),
      (err) => ({ error: err.message ?? String(err) }),
    );
    if (legacy.result) {
      const viaLegacy = await turn(first, sid, `(f) after legacy session/set_mode ${other}`, s.reply.prompt);
      const told = /plan mode/i.test(viaLegacy.model.find((m) => m.tools.length > 0)?.lastUserText ?? '');
      say(
        `  legacy session/set_mode ${other}: answer ${short(legacy.result)}; the model is told about plan mode: ${told}`,
      );
      await first.request('session/set_mode', { sessionId: sid, modeId: modeOption.currentValue });
    } else say(`  legacy session/set_mode ${other}: ${short(legacy)}`);
  }

  // Model switching: the config option `model`; the next turn must use the new model
  const modelOption = session.configOptions?.find((o) => o.category === 'model');
  if (expect(modelOption, 'session/new offers a model config option')) {
    const other = modelOption.options.find((o) => o.value !== modelOption.currentValue).value;
    const marks = first.updates.length;
    const set = await first.request('session/set_config_option', {
      sessionId: sid,
      configId: modelOption.id,
      value: other,
    });
    await sleep(300);
    say(
      `set_config_option ${modelOption.id}=${other}: answer ${short(set.configOptions?.map((o) => `${o.id}=${o.currentValue}`))}; updates ${short(
        first.updates.slice(marks).map((u) => u.update),
        400,
      )}`,
    );
    expect(
      configValue(set.configOptions, modelOption.id) === other,
      `model switched to ${other} (in the answer's configOptions)`,
    );
    const f = await turn(first, sid, '(f) after the model switch', s.reply.prompt);
    const history = f.model.find((m) => m.tools.length > 0)?.toolResults ?? [];
    expect(
      !/plan mode/i.test(f.model.find((m) => m.tools.length > 0)?.lastUserText ?? ''),
      'back in build mode, the model is not told about plan mode',
    );
    say(
      `  tool results in the history the model sees now: ${short(
        history.map((r) => `${r.isError ? 'error' : 'ok'}: ${r.text.slice(0, 60)}`),
        600,
      )}`,
    );
    expect(
      history.at(-1)?.isError && /rejected/.test(history.at(-1).text),
      'the model sees the rejected command as a failed tool call in the history',
    );
    const used = f.model.filter((m) => m.tools.length > 0).map((m) => m.model);
    expect(
      used.length > 0 && used.every((m) => `${other}`.endsWith(`/${m}`)),
      `the next turn used ${other} (the fake saw ${used.join(', ')})`,
    );
    const legacy = await first.request('session/set_model', { sessionId: sid, modelId: modelOption.currentValue }).then(
      (r) => ({ result: r }),
      (err) => ({ error: err.message ?? String(err) }),
    );
    say(`raw session/set_model ${modelOption.currentValue}: ${short(legacy)}`);
    const back = await turn(first, sid, '(f) after raw session/set_model', s.reply.prompt);
    say(
      `  model used after raw session/set_model: ${back.model
        .filter((m) => m.tools.length > 0)
        .map((m) => m.model)
        .join(', ')}`,
    );
  }

  // A second session, to resume in the second process
  const second = await first.request('session/new', { cwd: workspace, mcpServers: [] });
  const g = await turn(first, second.sessionId, '(g) second session', s.reply.prompt);
  expect(g.text.join('') === s.reply.text, '(g) the second session answers');

  if (caps.sessionCapabilities?.list) {
    const list = await first.request('session/list', { cwd: workspace });
    say(`session/list: ${short(list, 600)}`);
    const ids = list.sessions?.map((x) => x.sessionId) ?? [];
    expect(ids.includes(sid) && ids.includes(second.sessionId), 'session/list has both sessions');
  }
  if (caps.sessionCapabilities?.close) {
    const closed = await first.request('session/close', { sessionId: second.sessionId });
    say(`session/close: ${short(closed)}`);
    const after = await first
      .request('session/prompt', { sessionId: second.sessionId, prompt: [{ type: 'text', text: 'still there?' }] })
      .then(
        (r) => ({ result: r }),
        (err) => ({ error: err.message ?? String(err) }),
      );
    say(`prompt to the closed session: ${short(after)}`);
  }
  const outside = first.updates.filter((u) => u.phase === 'idle');
  say(
    `updates outside a request (kind, ms after the previous answer): ${outside.map((u) => `${u.update.sessionUpdate} +${u.msAfterAnswer}`).join(', ') || 'none'}`,
  );
  const { gone } = await measureExit(first, 'stdin EOF');
  expect(gone !== undefined, 'the first process group exits by itself on stdin EOF');
  await stop(first);

  // --- second process, same HOME: list, load, resume ---------------------------------------
  const next = startAgent('agent2');
  agents.push(next);
  await initialize(next);
  const list = await next.request('session/list', { cwd: workspace });
  const ids = list.sessions?.map((x) => x.sessionId) ?? [];
  expect(
    ids.includes(sid) && ids.includes(second.sessionId),
    `a new process lists both sessions (${ids.length} listed)`,
  );
  say(
    `  listed: ${short(
      list.sessions?.map((x) => ({ id: x.sessionId, title: x.title, cwd: x.cwd, updatedAt: x.updatedAt })),
      500,
    )}`,
  );
  if (init.agentCapabilities?.loadSession) {
    const marks = next.updates.length;
    const started = Date.now();
    const loaded = await next.request('session/load', { sessionId: sid, cwd: workspace, mcpServers: [] });
    await sleep(300);
    const replay = next.updates.slice(marks).map((u) => u.update);
    const kinds = {};
    for (const u of replay) kinds[u.sessionUpdate] = (kinds[u.sessionUpdate] ?? 0) + 1;
    say(
      `session/load in ${Date.now() - started} ms: answer ${short(loaded?.configOptions?.map((o) => `${o.id}=${o.currentValue}`) ?? loaded)}; replayed ${short(kinds)}`,
    );
    const userText = replay
      .filter((u) => u.sessionUpdate === 'user_message_chunk')
      .map((u) => u.content.text ?? '')
      .join('\n');
    expect(
      userText.includes(s.write.marker) && userText.includes(s.bash.marker),
      "session/load replays the user's prompts",
    );
    expect(
      replay.some((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.text?.includes(s.write.doneText)),
      "session/load replays the agent's answers",
    );
    expect(
      replay.some((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update'),
      'session/load replays the tool calls',
    );
  }
  if (caps.sessionCapabilities?.resume) {
    const marks = next.updates.length;
    const resumed = await next.request('session/resume', {
      sessionId: second.sessionId,
      cwd: workspace,
      mcpServers: [],
    });
    await sleep(300);
    const replay = next.updates.slice(marks).map((u) => u.update.sessionUpdate);
    say(
      `session/resume: answer ${short(resumed?.configOptions?.map((o) => `${o.id}=${o.currentValue}`) ?? resumed)}; updates ${short(replay)}`,
    );
    expect(
      !replay.includes('user_message_chunk') && !replay.includes('agent_message_chunk'),
      'session/resume replays no messages',
    );
    const h = await turn(next, second.sessionId, '(h) resumed session', s.reply.prompt);
    const main = h.model.find((m) => m.tools.length > 0);
    expect(
      h.text.join('') === s.reply.text && main?.messages > 2,
      `(h) the resumed session answers, with its history (${main?.messages} messages to the model)`,
    );
  }
  await measureExit(next, 'SIGTERM to the leader');
  await stop(next);

  // --- third process: SIGTERM to the group -------------------------------------------------
  const last = startAgent('agent3');
  agents.push(last);
  await initialize(last);
  await last.request('session/new', { cwd: workspace, mcpServers: [] });
  await measureExit(last, 'SIGTERM to the group');
  await stop(last);

  const unknown = fake.requests.filter((r) => r.summary.unknown).map((r) => `${r.method} ${r.path}`);
  expect(unknown.length === 0, `no unknown requests to the fake model ${short(unknown)}`);
  say(
    `model requests: ${fake.messageLog().length} (${fake.messageLog().filter((m) => m.tools.length === 0).length} without tools: titles)`,
  );
} catch (error) {
  failures.push(String(error?.stack ?? error));
  say(`error: ${error?.stack ?? error}`);
} finally {
  for (const agent of agents) await stop(agent);
  for (const term of terminals.values()) term.child.kill('SIGKILL');
  await fake.close();
  for (const r of fake.requests) {
    dump?.write(
      JSON.stringify({
        agent: 'fake-model',
        dir: 'agent->model',
        ms: r.at - t0,
        message: { method: r.method, path: r.path, body: r.body, answered: r.summary.answered },
      }) + '\n',
    );
  }
  if (dump) await new Promise((resolve) => dump.end(resolve));
  if (process.env.KEEP === '1') say(`kept: workspace ${workspace}, HOME ${home}`);
  else {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}
say(failures.length ? `FAILED: ${failures.length}` : 'all expectations held');
process.exit(failures.length ? 1 : 0);
