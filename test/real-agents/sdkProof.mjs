/**
 * A proof outside VS Code for an agent of agents.mjs, with a plain ACP SDK client: the agent's own
 * fake model, HOME and scenario (its `start()` and `scenario()`), played turn by turn, with what the
 * agent sent in each turn printed in wire order. Used by qwen/ and kilo/sdkClient.mjs (the older
 * agents have their own, longer ones).
 *
 * First process: initialize; session/new; a reply; a new file, an edit and a command, each
 * allowed; a command rejected; a model change (the first config switch of `expect` that names a
 * request model) seen in the next request; session/list; then stdin closed: does the process
 * group end by itself? Second process, same HOME: the session continued (`session/resume` when
 * offered, else `session/load`) and a turn in it, whose model request must carry the earlier
 * prompts; then SIGTERM to the group.
 *
 * The client offers what the extension's Node host offers: fs/read_text_file, fs/write_text_file
 * (inside the workspace) and terminals (answered with an error here: neither agent uses them).
 *
 *   const { connect, turn, expect, say, finish } = await sdkProof(REAL_AGENTS.kilo, { onRequest });
 *   VERBOSE=1   every message, both ways       WRITE=skip  fs/write_text_file answers without writing
 *   KEEP=1      keep the workspace and HOME
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { proofLog } from './proofLog.mjs';
import { CLIENT_CAPABILITIES } from './sdkConnection.mjs';

const verbose = process.env.VERBOSE === '1';
const short = (value, max = 300) => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The members of process group `pgid` still alive (Linux). */
function groupMembers(pgid) {
  const pids = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') pids.push(Number(name));
    } catch {}
  }
  return pids;
}

/** Messages in wire order, compactly: updates (with a tool call's status) and requests from the agent. */
function sequence(events) {
  const labels = [];
  for (const e of events) {
    const label = e.update ? e.update.sessionUpdate + (e.update.status ? `(${e.update.status})` : '') : e.method;
    if (labels.at(-1)?.label === label) labels.at(-1).count++;
    else labels.push({ label, count: 1 });
  }
  return labels.map((l) => (l.count > 1 ? `${l.label} x${l.count}` : l.label)).join(', ') || '-';
}

/**
 * @param {object} spec an entry of REAL_AGENTS
 * @param {{ onRequest?: Record<string, (params: any) => any> }} [options] more client methods (an agent's extensions)
 */
export async function sdkProof(spec, { onRequest = {} } = {}) {
  const { say, expect, failures } = proofLog();
  await spec.install();
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-proof-ws-')));
  const s = spec.scenario(workspace);
  if (s.edit) fs.writeFileSync(s.edit.file, s.edit.before);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# proof workspace\n');
  const fakeLines = [];
  const { fake, home, agent } = await spec.start({
    workspace,
    log: (line) => (fakeLines.push(line), verbose && say(`[fake] ${line}`)),
  });
  /** Everything the agent sent in the current turn: { method } or { update }. */
  let events = [];
  let answer = 'allow_once';

  const inWorkspace = (file) => {
    const rel = path.relative(workspace, path.resolve(file));
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw acp.RequestError.invalidParams({ path: file }, 'outside');
    return path.resolve(file);
  };
  const handlers = {
    'session/request_permission': (params) => {
      const option = params.options.find((o) => o.kind === answer) ?? params.options[0];
      if (verbose) say(`  permission ${short(params.toolCall, 400)} -> ${option.optionId}`);
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    },
    'fs/read_text_file': (params) => {
      const file = inWorkspace(params.path);
      return { content: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '' };
    },
    'fs/write_text_file': (params) => {
      if (process.env.WRITE !== 'skip') fs.writeFileSync(inWorkspace(params.path), params.content);
      return {};
    },
    ...Object.fromEntries(
      ['create', 'output', 'wait_for_exit', 'kill', 'release'].map((m) => [
        `terminal/${m}`,
        () => {
          throw new acp.RequestError(-32603, 'no terminals in this proof');
        },
      ]),
    ),
    ...onRequest,
  };

  /** Spawns the agent in a group of its own and connects. */
  function connect(label) {
    const spawnedAt = performance.now();
    const child = spawn(agent.command, agent.args, {
      cwd: workspace,
      env: { ...process.env, ...agent.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stderr.on('data', (d) => verbose && process.stderr.write(`[${label} stderr] ${d}`));
    let app = acp.client({ name: 'vscode-acp-proof' }).onNotification('session/update', ({ params }) => {
      events.push({ update: params.update });
      if (verbose) say(`${label} update ${short(params.update, 400)}`);
    });
    for (const [method, handle] of Object.entries(handlers)) {
      const known = ['session/request_permission', 'fs/read_text_file', 'fs/write_text_file'].includes(method);
      const wrapped = ({ params }) => {
        events.push({ method, params });
        if (verbose) say(`${label} <- ${method} ${short(params)}`);
        return handle(params);
      };
      app = known ? app.onRequest(method, wrapped) : app.onRequest(method, { parse: (p) => p }, wrapped);
    }
    const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    return { connection, child, spawnedAt, exited, request: (m, p) => connection.agent.request(m, p) };
  }

  /** One prompt; returns its text, its tool calls' last states, the permissions and the wire sequence. */
  async function turn(a, sessionId, text, choice = 'allow_once') {
    answer = choice;
    events = [];
    const from = fake.messageLog().length;
    const started = performance.now();
    const result = await a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    await sleep(200);
    const updates = events.filter((e) => e.update).map((e) => e.update);
    const said = updates.filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text');
    const tools = new Map();
    for (const u of updates) {
      if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
        tools.set(u.toolCallId, { ...tools.get(u.toolCallId), ...u });
      }
    }
    const got = {
      result,
      text: said.map((u) => u.content.text).join(''),
      tools: [...tools.values()],
      permissions: events.filter((e) => e.method === 'session/request_permission').length,
      requests: fake.messageLog().slice(from),
      sequence: sequence(events),
      /** What the agent sent, in order: { method, params } or { update }. */
      events,
    };
    say(`"${text}": ${Math.round(performance.now() - started)} ms, ${result.stopReason}; ${got.sequence}`);
    return got;
  }

  /** Ends a process: how, and whether its group is gone within `ms`. */
  async function end(a, how, ms = 10_000) {
    const since = performance.now();
    if (how === 'eof') a.child.stdin.end();
    else process.kill(-a.child.pid, 'SIGTERM');
    while (groupMembers(a.child.pid).length && performance.now() - since < ms) await sleep(50);
    const left = groupMembers(a.child.pid);
    say(
      `${how}: ${left.length ? `${left.length} process(es) still there after ${ms} ms` : `group gone in ${Math.round(performance.now() - since)} ms`}`,
    );
    if (left.length) process.kill(-a.child.pid, 'SIGKILL');
    return left.length === 0;
  }

  /**
   * The common scenario; `check(step, got)` adds an agent's own expectations, `more(agent, sessionId)` its own
   * turns (after the rejected command, in the first process).
   */
  async function play(check = () => undefined, more = async () => undefined) {
    const a = connect('first');
    const init = await a.request('initialize', { protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES });
    say(`initialize: ${short({ agentInfo: init.agentInfo, agentCapabilities: init.agentCapabilities }, 700)}`);
    say(`auth methods: ${short(init.authMethods)}`);
    const created = await a.request('session/new', { cwd: workspace, mcpServers: [] });
    const sid = created.sessionId;
    say(`session/new after ${Math.round(performance.now() - a.spawnedAt)} ms from spawn`);
    say(`  config options: ${(created.configOptions ?? []).map((o) => `${o.id}=${o.currentValue}`).join(', ') || '-'}`);
    say(`  legacy modes: ${created.modes?.currentModeId ?? '-'}, models: ${created.models?.currentModelId ?? '-'}`);

    const reply = await turn(a, sid, s.reply.prompt);
    expect(reply.text === s.reply.text, `a reply: the model's text (${short(reply.text, 80)})`);
    check('reply', reply);
    const create = await turn(a, sid, s.create.marker);
    expect(create.permissions === 1, 'a new file: one permission asked');
    expect(fs.readFileSync(s.create.file, 'utf8') === s.create.content, 'a new file: on disk');
    expect(create.tools.at(-1)?.status === 'completed', 'a new file: the call completed');
    expect(create.text === s.create.doneText, 'a new file: the model told it worked');
    check('create', create);
    if (s.edit) {
      const edit = await turn(a, sid, s.edit.marker);
      expect(fs.readFileSync(s.edit.file, 'utf8') === s.edit.after, 'an edit: on disk');
      expect(edit.text === s.edit.doneText, 'an edit: the model told it worked');
      check('edit', edit);
    }
    const shell = await turn(a, sid, s.shell.marker);
    expect(fs.readFileSync(s.shell.file, 'utf8') === s.shell.fileContent, 'a command: it ran');
    expect(shell.text === s.shell.doneText, 'a command: the model told it worked');
    check('shell', shell);
    const refuse = await turn(a, sid, s.refuse.marker, 'reject_once');
    expect(!fs.existsSync(s.refuse.file), 'a command rejected: it did not run');
    expect(['failed', 'cancelled'].includes(refuse.tools.at(-1)?.status), 'a command rejected: the call failed');
    say(`  after the rejection the model was ${refuse.requests.length > 1 ? 'asked again' : 'not asked again'}`);
    check('refuse', refuse);
    await more(a, sid);

    const change = spec.expect.switches.find((c) => c.kind === 'config' && c.requestModel);
    if (change) {
      await a.request('session/set_config_option', { sessionId: sid, configId: change.id, value: change.value });
      const next = await turn(a, sid, s.reply.prompt);
      expect(
        next.requests.some((r) => r.model?.includes(change.requestModel)),
        `a model change reaches the model (${next.requests.map((r) => r.model).join(', ')})`,
      );
    }
    if (init.agentCapabilities?.sessionCapabilities?.list) {
      const list = await a.request('session/list', { cwd: workspace });
      expect(
        list.sessions.some((x) => x.sessionId === sid),
        `session/list has the session (${list.sessions.length} listed)`,
      );
    }
    expect(await end(a, 'eof'), 'the process group ends on stdin EOF');

    const b = connect('second');
    const init2 = await b.request('initialize', { protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES });
    const resumes = !!init2.agentCapabilities?.sessionCapabilities?.resume;
    events = [];
    await b.request(resumes ? 'session/resume' : 'session/load', { sessionId: sid, cwd: workspace, mcpServers: [] });
    say(`${resumes ? 'session/resume' : 'session/load'}: ${sequence(events)}`);
    const again = await turn(b, sid, 'Do you remember what we did?');
    expect(
      again.requests.some((r) => r.userTexts?.some((t) => t.includes(s.create.marker))),
      'the continued session: the model hears the earlier prompts',
    );
    expect(await end(b, 'sigterm'), 'the process group ends on SIGTERM');
    const unknown = fakeLines.filter((l) => l.startsWith('unknown request'));
    expect(unknown.length === 0, `the fake model was asked only what it knows ${short(unknown)}`);
  }

  async function finish() {
    await fake.close();
    if (process.env.KEEP === '1') say(`kept: workspace ${workspace}, HOME ${home}`);
    else for (const dir of [workspace, home]) fs.rmSync(dir, { recursive: true, force: true });
    say(failures.length ? `FAILED: ${failures.length}` : 'all expectations held');
    return failures.length ? 1 : 0;
  }

  return { workspace, scenario: s, play, turn, connect, expect, say, finish };
}
