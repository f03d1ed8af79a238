/**
 * Proof outside VS Code: a plain ACP SDK client drives Gemini CLI (`gemini --acp`) through whole
 * turns against the fake Gemini endpoint (fakeModel.mjs, scenario in script.mjs). It offers
 * fs/read_text_file, fs/write_text_file (workspace only) and terminals (spawn without a shell).
 *
 * Steps: initialize; session/new; (a) a streamed reply; (b) create greeting.txt (allowed);
 * (c) edit notes.txt (allowed); (d) a shell command (allowed); a shell command rejected; mode
 * autoEdit (session/set_mode) and a write that must not ask; a model switch (raw
 * session/set_model) seen in the next request's URL; session/load (history replayed); then stdin
 * is closed and the agent's process group is watched until it exits (SIGTERM after 10 s).
 *
 *   node test/real-agents/gemini/sdkClient.mjs
 *   VERBOSE=1 ...            every session/update, the fake endpoint's log and the agent's stderr
 *   DUMP=/tmp/gemini.jsonl   every JSON-RPC message, both ways: {t, dir: "in"|"out", msg} per line
 *   MISSING=<answer>         how fs/read_text_file answers a file that does not exist:
 *                              empty          {content: ""} (what Zed answers inside its project; default)
 *                              ours           error -32603 "\"<path>\" does not exist." (the extension today)
 *                              not-found      RequestError.resourceNotFound(path): -32002 "Resource not found: <path>", data {uri}
 *                              zed-not-found  -32002 "Resource not found", data {uri} (Zed, outside its project)
 *                              enoent         -32603 "ENOENT: no such file or directory, open '<path>'"
 *   END=eof|leader|group     how the agent is ended: close stdin (default), SIGTERM to the leader, SIGTERM to the group
 *   KEEP=1                   keep the workspace and the agent's HOME
 *
 * Exit code 0 when every expectation held.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { env, install, launch, makeHome } from './agent.mjs';
import { startFakeModel } from './fakeModel.mjs';
import { scenario, scriptRules } from './script.mjs';
import { proofLog } from '../proofLog.mjs';

const verbose = process.env.VERBOSE === '1';
const missing = process.env.MISSING ?? 'empty';
const ending = process.env.END ?? 'eof';
const { t0, say, expect, failures } = proofLog();
const trim = (value, max = 300) => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
};

/** The read handler's answer for a file that does not exist (see MISSING above). */
const MISSING_ANSWERS = {
  empty: () => ({ content: '' }),
  ours: (file) => {
    throw new acp.RequestError(-32603, `"${file}" does not exist.`);
  },
  'not-found': (file) => {
    throw acp.RequestError.resourceNotFound(file);
  },
  'zed-not-found': (file) => {
    throw new acp.RequestError(-32002, 'Resource not found', { uri: file });
  },
  enoent: (file) => {
    throw new acp.RequestError(-32603, `ENOENT: no such file or directory, open '${file}'`);
  },
};
if (!MISSING_ANSWERS[missing]) throw new Error(`MISSING=${missing}: one of ${Object.keys(MISSING_ANSWERS).join(', ')}`);
if (!['eof', 'leader', 'group'].includes(ending)) throw new Error(`END=${ending}: one of eof, leader, group`);

await install();
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-gemini-ws-')));
const s = scenario(workspace);
fs.writeFileSync(s.edit.file, s.edit.before);
const fake = await startFakeModel({ rules: scriptRules(workspace), log: verbose ? undefined : () => {} });
const home = await makeHome({ workspace, baseUrl: fake.url });
const dump = process.env.DUMP ? fs.openSync(process.env.DUMP, 'w') : undefined;
/** Every JSON-RPC message, both ways: { t (ms since start), dir, msg }. */
const wire = [];
let child;
let exited;

/** Inside the workspace, else a JSON-RPC error. */
function workspacePath(file) {
  const resolved = path.resolve(file);
  const rel = path.relative(workspace, resolved);
  if (!path.isAbsolute(file) || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new acp.RequestError(-32602, `${file} is outside the workspace`);
  }
  return resolved;
}

/** The UTC minute Gemini CLI puts in a chat file's name. */
const minuteOf = (date) => date.toISOString().slice(0, 16);

/** The messages of a turn in wire order, compactly: what the agent asked and sent, and our errors. */
function sequence(entries) {
  const labels = [];
  for (const { dir, msg } of entries) {
    if (dir === 'in' && msg.method === 'session/update') {
      const u = msg.params.update;
      const label = u.sessionUpdate + (u.status ? `(${u.status})` : '');
      if (labels.at(-1)?.label === label) labels.at(-1).count++;
      else labels.push({ label, count: 1 });
    } else if (dir === 'in' && msg.method) labels.push({ label: msg.method, count: 1 });
    else if (dir === 'out' && msg.error) labels.push({ label: `our error ${msg.error.code}`, count: 1 });
  }
  return labels.map((l) => (l.count > 1 ? `${l.label} x${l.count}` : l.label)).join(', ') || '-';
}

/** Terminals: spawn(command, args) without a shell, output collected. */
const terminals = new Map();
let terminalCount = 0;
function createTerminal({ command, args = [], cwd, env: vars = [], outputByteLimit }) {
  const id = `term-${++terminalCount}`;
  const term = { output: '', truncated: false, exit: undefined, waiters: [] };
  const proc = spawn(command, args, {
    cwd: cwd ?? workspace,
    env: { ...process.env, ...Object.fromEntries(vars.map((v) => [v.name, v.value])) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk) => {
    term.output += chunk;
    if (outputByteLimit && Buffer.byteLength(term.output) > outputByteLimit) {
      term.output = Buffer.from(term.output).subarray(-outputByteLimit).toString();
      term.truncated = true;
    }
  };
  proc.stdout.setEncoding('utf8').on('data', append);
  proc.stderr.setEncoding('utf8').on('data', append);
  const finish = (exitStatus) => {
    if (term.exit) return;
    term.exit = exitStatus;
    for (const resolve of term.waiters) resolve(exitStatus);
  };
  proc.on('error', (error) => {
    append(String(error.message));
    finish({ exitCode: 127, signal: null });
  });
  proc.on('exit', (code, signal) => finish({ exitCode: code, signal }));
  term.proc = proc;
  terminals.set(id, term);
  return { terminalId: id };
}
function terminal(id) {
  const term = terminals.get(id);
  if (!term) throw acp.RequestError.resourceNotFound(id);
  return term;
}

try {
  const { command, args } = launch();
  say(`agent: ${command} ${args.join(' ')}; missing files answered "${missing}"`);
  const spawnedAt = Date.now();
  child = spawn(command, args, {
    cwd: workspace,
    env: { PATH: process.env.PATH, ...env({ home, baseUrl: fake.url, workspace }) },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const stderr = [];
  child.stderr.setEncoding('utf8').on('data', (t) => {
    stderr.push(t);
    if (verbose) process.stderr.write(`[agent stderr] ${t}`);
  });
  exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ at: Date.now(), code, signal })));

  /** What the next permission request is answered with: an option kind prefix. */
  let answer = 'allow_once';
  let inTurn = false;
  const permissions = [];
  const updates = [];
  const outsideTurn = [];
  let updateCount = 0;
  const fsRequests = [];
  const app = acp
    .client({ name: 'gemini-sdk-proof' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params.update);
      updateCount++;
      if (!inTurn) outsideTurn.push(params.update);
      if (verbose) say(`update ${trim(params.update, 400)}`);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      const option = params.options.find((o) => o.kind.startsWith(answer));
      say(
        `permission asked: ${trim({ title: params.toolCall.title, kind: params.toolCall.kind, options: params.options.map((o) => `${o.kind}:${o.optionId}`) })}; answering ${option.kind}`,
      );
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      fsRequests.push({ method: 'fs/read_text_file', params });
      const file = workspacePath(params.path);
      if (!fs.existsSync(file)) return MISSING_ANSWERS[missing](file);
      const lines = fs.readFileSync(file, 'utf8').split(/(?<=\n)/);
      const start = (params.line ?? 1) - 1;
      return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join('') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      fsRequests.push({ method: 'fs/write_text_file', params });
      const file = workspacePath(params.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, params.content);
      return {};
    })
    .onRequest('terminal/create', ({ params }) => {
      fsRequests.push({ method: 'terminal/create', params });
      return createTerminal(params);
    })
    .onRequest('terminal/output', ({ params }) => {
      const term = terminal(params.terminalId);
      return { output: term.output, truncated: term.truncated, ...(term.exit ? { exitStatus: term.exit } : {}) };
    })
    .onRequest('terminal/wait_for_exit', ({ params }) => {
      const term = terminal(params.terminalId);
      return term.exit ?? new Promise((resolve) => term.waiters.push(resolve));
    })
    .onRequest('terminal/kill', ({ params }) => {
      terminal(params.terminalId).proc.kill('SIGTERM');
      return {};
    })
    .onRequest('terminal/release', ({ params }) => {
      terminal(params.terminalId).proc.kill('SIGKILL');
      terminals.delete(params.terminalId);
      return {};
    });

  // Tap both directions of the stream: every message is recorded (and dumped).
  const record = (dir) =>
    new TransformStream({
      transform(msg, controller) {
        const entry = { t: Date.now() - t0, dir, msg };
        wire.push(entry);
        if (dump !== undefined) fs.writeSync(dump, JSON.stringify(entry) + '\n');
        controller.enqueue(msg);
      },
    });
  const raw = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const outgoing = record('out');
  void outgoing.readable.pipeTo(raw.writable).catch(() => {});
  const connection = app.connect({ readable: raw.readable.pipeThrough(record('in')), writable: outgoing.writable });
  const withTimeout = (promise, ms, what) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);
  const request = (method, params, ms = 90_000) => withTimeout(connection.agent.request(method, params), ms, method);

  const init = await request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientInfo: { name: 'gemini-sdk-proof', version: '0.0.0' },
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
  say(
    `initialize (${Date.now() - spawnedAt} ms): ${init.agentInfo?.name} ${init.agentInfo?.version}; agentCapabilities ${trim(init.agentCapabilities)}; auth methods ${trim(init.authMethods.map((m) => m.id))}`,
  );
  expect(init.agentCapabilities?.loadSession === true, 'initialize advertises loadSession');

  const session = await request('session/new', { cwd: workspace, mcpServers: [] });
  const sessionMinute = minuteOf(new Date());
  const { sessionId } = session;
  say(`connect time (spawn to session/new answered): ${Date.now() - spawnedAt} ms`);
  say(
    `session/new: modes ${trim(session.modes)}; models ${trim(session.models, 600)}; configOptions ${trim(session.configOptions)}`,
  );
  expect(session.modes?.currentModeId === 'default', 'session starts in mode "default"');
  expect(
    Array.isArray(session.models?.availableModels) && session.models.availableModels.length > 1,
    'session/new lists models (legacy `models`)',
  );

  /** One prompt turn: the stop reason, the agent's text, the updates and permissions of the turn. */
  async function turn(label, text, choice = 'allow_once') {
    answer = choice;
    permissions.length = 0;
    updates.length = 0;
    fsRequests.length = 0;
    const start = Date.now();
    const first = wire.length;
    inTurn = true;
    let result;
    try {
      result = await request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    } finally {
      inTurn = false;
    }
    await new Promise((r) => setTimeout(r, 100)); // late updates (seen with real agents: they may follow the response)
    const chunks = updates.filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text');
    const reply = chunks.map((u) => u.content.text).join('');
    say(`turn ${label}: stopReason ${result.stopReason} after ${Date.now() - start} ms; text ${JSON.stringify(reply)}`);
    const tools = updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');
    say(`  sequence: ${sequence(wire.slice(first))}`);
    for (const r of fsRequests) say(`  ${r.method} ${trim(r.params, 200)}`);
    return { result, reply, chunks, tools, permissions: [...permissions], fsRequests: [...fsRequests] };
  }
  const lastCall = () => fake.messageLog().at(-1);

  // (a) a streamed reply
  const a = await turn('(a) reply', s.reply.prompt);
  expect(a.reply === s.reply.text, "(a) the reply is the fake model's text");
  expect(a.chunks.length >= 3, `(a) it arrived in ${a.chunks.length} chunks (>= 3)`);

  // (b) create a new file
  const b = await turn('(b) create', s.create.marker);
  expect(b.permissions.length === 1, `(b) one permission request (got ${b.permissions.length})`);
  expect(
    fs.existsSync(s.create.file) && fs.readFileSync(s.create.file, 'utf8') === s.create.content,
    '(b) greeting.txt written with the scripted content',
  );
  expect(
    b.reply === s.create.doneText,
    `(b) the model was told it worked (${JSON.stringify(lastCall()?.functionResponses?.[0]?.text ?? '')})`,
  );

  // (c) edit an existing file
  const c = await turn('(c) edit', s.edit.marker);
  expect(c.permissions.length === 1, `(c) one permission request (got ${c.permissions.length})`);
  expect(fs.readFileSync(s.edit.file, 'utf8') === s.edit.after, '(c) notes.txt edited');
  expect(c.reply === s.edit.doneText, '(c) the model was told it worked');

  // (d) a shell command
  const d = await turn('(d) shell', s.shell.marker);
  expect(d.permissions.length === 1, `(d) one permission request (got ${d.permissions.length})`);
  expect(
    fs.existsSync(s.shell.file) && fs.readFileSync(s.shell.file, 'utf8') === s.shell.fileContent,
    '(d) ran.txt written by the command',
  );
  expect(
    d.reply === s.shell.doneText,
    `(d) the model was told it worked (${JSON.stringify(lastCall()?.functionResponses?.[0]?.text ?? '')})`,
  );

  // a rejected permission
  const r = await turn('rejected shell', s.rejected.marker, 'reject');
  expect(r.permissions.length === 1, `(reject) one permission request (got ${r.permissions.length})`);
  expect(!fs.existsSync(s.rejected.file), '(reject) nope.txt not created');
  expect(
    r.reply === s.rejected.refusedText,
    `(reject) the model got an error result (${JSON.stringify(lastCall()?.functionResponses?.[0]?.text ?? '')})`,
  );
  say(`  tool updates after the rejection: ${r.tools.length}`);

  // modes: autoEdit, then a write that must not ask
  const before = outsideTurn.length;
  const setMode = await request('session/set_mode', { sessionId, modeId: 'autoEdit' });
  await new Promise((r) => setTimeout(r, 300));
  say(
    `session/set_mode autoEdit answered ${trim(setMode)}; updates outside a turn since: ${trim(outsideTurn.slice(before))}`,
  );
  expect(
    outsideTurn
      .slice(before)
      .some((u) => u.sessionUpdate === 'current_mode_update' || JSON.stringify(u).includes('autoEdit')),
    'the mode change is reported (current_mode_update or a chunk naming the mode)',
  );
  const m = await turn('autoEdit write', s.autoEdit.marker);
  expect(m.permissions.length === 0, `(autoEdit) no permission request (got ${m.permissions.length})`);
  expect(
    fs.existsSync(s.autoEdit.file) && fs.readFileSync(s.autoEdit.file, 'utf8') === s.autoEdit.content,
    '(autoEdit) auto.txt written',
  );
  await request('session/set_mode', { sessionId, modeId: 'default' });

  // models: legacy `models` + raw session/set_model, seen in the next request's URL
  const usedModel = () =>
    fake
      .messageLog()
      .filter((x) => x.verb === 'streamGenerateContent')
      .at(-1)
      ?.path.match(/models\/([^:]+):/)?.[1];
  const previous = usedModel();
  const target = session.models.availableModels.map((x) => x.modelId).find((id) => id !== 'auto' && id !== previous);
  const setModel = await request('session/set_model', { sessionId, modelId: target });
  say(`session/set_model ${target} answered ${trim(setModel)}`);
  const mm = await turn('after set_model', s.reply.prompt);
  expect(usedModel() === target, `the next turn asked ${target}, not ${previous} as before (asked ${usedModel()})`);
  expect(mm.reply === s.reply.text, 'the turn after set_model completed');

  // session/load: history replayed as updates. Gemini CLI names its chat file after the minute
  // the session started; a load within that minute starts a new recording in the same file, which
  // clears the history for good ("No previous sessions found for this project."). So wait it out.
  const waitMs = minuteOf(new Date()) === sessionMinute ? 60_000 - (Date.now() % 60_000) + 200 : 0;
  if (waitMs > 0) say(`waiting ${waitMs} ms for the next minute before session/load (see above)`);
  await new Promise((r) => setTimeout(r, waitMs));
  updates.length = 0;
  const loadStart = Date.now();
  const load = await request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  await new Promise((r) => setTimeout(r, 300));
  const kinds = {};
  for (const u of updates) kinds[u.sessionUpdate] = (kinds[u.sessionUpdate] ?? 0) + 1;
  say(`session/load (${Date.now() - loadStart} ms) answered ${trim(load, 400)}; replayed ${trim(kinds)}`);
  const replayedUser = updates
    .filter((u) => u.sessionUpdate === 'user_message_chunk')
    .map((u) => u.content.text)
    .join('\n');
  expect(
    replayedUser.includes(s.create.marker) && replayedUser.includes(s.shell.marker),
    'session/load replays the user prompts',
  );
  const a2 = await turn('after load', s.reply.prompt);
  expect(a2.reply === s.reply.text, 'a turn after session/load works');

  // fake endpoint: what it was asked
  const log = fake.messageLog();
  say(
    `fake endpoint: ${log.map((x) => `${x.verb === 'generateContent' ? 'gen' : 'stream'}:${x.path.split('/').at(-1).split(':')[0]}->${x.answered}`).join(' ')}`,
  );
  const sent = wire.filter((e) => e.dir === 'in' && e.msg.method === 'session/update').length;
  expect(updateCount === sent, `every session/update passed the SDK's validation (${updateCount} of ${sent})`);
  const unknown = fake.requests.filter((x) => x.summary.unknown).map((x) => `${x.method} ${x.path}`);
  expect(unknown.length === 0, `no unknown paths asked (${trim(unknown)})`);
  if (verbose) say(`agent stderr:\n${stderr.join('')}`);

  // ending the agent
  const group = () =>
    spawnSync('ps', ['-o', 'pid=,args=', '-g', String(child.pid)], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => trim(l.trim(), 120));
  say(`process group ${child.pid} before the end: ${JSON.stringify(group())}`);
  const endAt = Date.now();
  if (ending === 'eof') child.stdin.end();
  else if (ending === 'leader') process.kill(child.pid, 'SIGTERM');
  else process.kill(-child.pid, 'SIGTERM');
  const leader = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 10_000))]);
  say(
    `${ending}: leader ${leader ? `exited after ${leader.at - endAt} ms (${leader.signal ?? `code ${leader.code}`})` : 'still running after 10 s'}`,
  );
  await new Promise((r) => setTimeout(r, 500));
  say(`${ending}: process group after: ${JSON.stringify(group())}`);
  expect(leader !== undefined, `the agent exits on ${ending}`);
} catch (error) {
  failures.push(String(error?.stack ?? error));
  say(`error: ${error?.stack ?? error}${error?.data === undefined ? '' : `; data ${trim(error.data, 2000)}`}`);
} finally {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  await fake.close();
  if (dump !== undefined) fs.closeSync(dump);
  if (process.env.KEEP === '1') say(`kept: workspace ${workspace}, HOME ${home}`);
  else {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}
say(failures.length ? `FAILED: ${failures.length}` : 'all expectations held');
process.exit(failures.length ? 1 : 0);
