/**
 * Memory of the two processes that hold a chat's transcript: code-server's
 * extension host (Node, the thread model) and the workbench's renderer (the
 * chat webview: its entries and their DOM).
 *
 * The extension host: code-server takes no `--inspect-extensions`, but
 * SIGUSR1 makes any Node process open its inspector on 127.0.0.1:9229; the
 * bench talks CDP to it over `ws`. The renderer: a CDP session on the page.
 * The chat webview is same-origin with the workbench in code-server, so it
 * shares the page's V8 heap (`performance.memory` in the frame reports the
 * same heap): the renderer's figures are the workbench's and the webview's
 * together.
 */
import * as fs from 'node:fs';
import WebSocket from 'ws';

const INSPECTOR = '127.0.0.1:9229';
const MiB = 1024 * 1024;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes) => Math.round((bytes / MiB) * 10) / 10;

/** Resident set size of `pid` in MiB (VmRSS), or NaN once it is gone. */
export function rssMiB(pid) {
  try {
    return mib(Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024);
  } catch {
    return NaN;
  }
}

/** Parent pid of every process, from /proc/<pid>/stat (its name may hold spaces: read after the last ')'). */
function parents() {
  const out = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The pid of the extension host under code-server `serverPid` (`bootstrap-fork --type=extensionHost`). */
export function extensionHostPid(serverPid) {
  const ppid = parents();
  const under = (pid) => {
    for (let p = pid; p > 1; p = ppid.get(p)) if (p === serverPid) return true;
    return false;
  };
  for (const pid of ppid.keys()) {
    let cmd;
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.split('\0').includes('--type=extensionHost') && under(pid)) return pid;
  }
  throw new Error(`bench: no extension host process under code-server (pid ${serverPid})`);
}

async function inspectorTargets() {
  try {
    return await (await fetch(`http://${INSPECTOR}/json/list`)).json();
  } catch {
    return undefined;
  }
}

/** A minimal CDP client over a WebSocket: `send(method, params)` resolves to the result. */
function cdpOver(url) {
  const ws = new WebSocket(url);
  let nextId = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const callback = pending.get(message.id);
    if (!callback) return; // an event
    pending.delete(message.id);
    if (message.error) callback.reject(new Error(`${callback.method}: ${message.error.message}`));
    else callback.resolve(message.result);
  });
  ws.on('close', () => pending.forEach((c) => c.reject(new Error(`${c.method}: the inspector closed`))));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        send: (method, params = {}) =>
          new Promise((res, rej) => {
            pending.set(++nextId, { resolve: res, reject: rej, method });
            ws.send(JSON.stringify({ id: nextId, method, params }));
          }),
        close: () => ws.close(),
      }),
    );
  });
}

/**
 * Opens the inspector of process `pid` (SIGUSR1) and connects to it.
 * Resolves to `{ send, close }`, or `{ error }` when it cannot be had (the
 * port is taken by another process, or `pid` did not open it): the figure is
 * then reported as not measured.
 */
export async function openInspector(pid) {
  if (await inspectorTargets()) return { error: `${INSPECTOR} is taken by another process` };
  process.kill(pid, 'SIGUSR1');
  for (let i = 0; i < 50; i++) {
    const target = (await inspectorTargets())?.[0];
    if (target) {
      const client = await cdpOver(target.webSocketDebuggerUrl);
      // Make sure the inspector that answered is that process's.
      const { result } = await client.send('Runtime.evaluate', { expression: 'process.pid' });
      if (result.value === pid) return client;
      client.close();
      return { error: `${INSPECTOR} answered for pid ${result.value}, not ${pid}` };
    }
    await sleep(100);
  }
  return { error: `pid ${pid} did not open its inspector on ${INSPECTOR} after SIGUSR1` };
}

/**
 * V8 heap in use after a full garbage collection, through CDP `send`: `usedMiB`
 * (JavaScript) and `embedderMiB` (Blink's C++ objects that V8 traces: the DOM;
 * zero in Node).
 */
export async function heapAfterGc(send) {
  // Twice: the first collection runs finalizers that free more for the second.
  await send('HeapProfiler.collectGarbage');
  await send('HeapProfiler.collectGarbage');
  const usage = await send('Runtime.getHeapUsage');
  return { usedMiB: mib(usage.usedSize), embedderMiB: mib(usage.embedderHeapUsedSize ?? 0) };
}

/** The pid of the renderer that runs `page`: the process of a performance mark in a short trace. */
export async function rendererPid(browser, page) {
  await browser.startTracing(page, { categories: ['blink.user_timing'] });
  await page.evaluate(() => performance.mark('bench-renderer-pid'));
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  return events.find((e) => e.name === 'bench-renderer-pid')?.pid;
}
