/**
 * Fuzz stage: the test agent's `fuzz` step sends thousands of messages
 * generated from the SDK's JSON Schema (a share mutated, some lines broken)
 * through the real extension (code-server's Node host) into the real chat
 * webview (Chromium). Passes when neither the extension host nor the page
 * crashed, the chat answers a prompt afterwards, nothing was written outside
 * the workspace, and the host's and the view's JS heaps come back to a
 * bounded level.
 *
 * Run after `npm run build`: node test/ui/fuzz.ui.mjs [--count=N] [--seeds=1,2]
 * (ACP_FUZZ_SEEDS=1,2,3 too).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand, webviewFrame } from '../harness/code-server.mjs';
import { openScenarioChat } from '../harness/scenarioChat.mjs';
import { extensionHostPid, heapAfterGc, openInspector } from '../harness/inspector.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';

const MiB = 1024 * 1024;
/** What the heaps may keep after the fuzz, over what they held before it. */
const HOST_HEAP_BOUND = 128 * MiB;
const VIEW_HEAP_BOUND = 128 * MiB;
/** The same after Close Chat: the fuzz's chat is gone, so should its memory be (New Chat keeps the chat before it open). */
const AFTER_NEW_CHAT_BOUND = 32 * MiB;

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

/** In the page: the text of the chat's last entries (through shadow roots), for a failure report. */
function lastEntriesText() {
  const entries = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName === 'acp-chat-entry') entries.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const text = (node) =>
    [...node.childNodes].map((n) => (n.nodeType === 3 ? n.textContent : text(n))).join('') +
    (node.shadowRoot ? text(node.shadowRoot) : '');
  return (
    `${entries.length} entries; the last:\n` +
    entries
      .slice(-6)
      .map((e) => text(e).replace(/\s+/g, ' ').slice(0, 300))
      .join('\n---\n')
  );
}

export async function runFuzzUiTest({ count = 2_500, seeds = [1, 2] } = {}) {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-fuzz-'));
  const folder = path.join(parent, 'workspace');
  // The fuzzer aims writes at ../fuzz-outside: it must stay empty.
  const outside = path.join(parent, 'fuzz-outside');
  fs.mkdirSync(folder);
  fs.mkdirSync(outside);
  const scenario = {
    turns: [
      ...seeds.map((seed) => ({
        match: `^fuzz ${seed}$`,
        steps: [{ fuzz: { count, seed, reportFile: path.join(parent, `report-${seed}.json`) } }],
      })),
      { match: '', steps: [{ text: 'still here' }] },
    ],
  };
  const started = Date.now();
  const session = await openScenarioChat({ folder, scenario, name: 'Fuzz Agent' }).catch((error) => {
    fs.rmSync(parent, { recursive: true, force: true });
    throw error;
  });
  const { page, chat, send } = session;
  const { server } = session.wb;
  let pageCrashed = false;
  page.on('crash', () => (pageCrashed = true));
  try {
    const host = extensionHostPid(server.pid);
    const inspector = await openInspector(host);
    if (inspector.error) throw new Error(inspector.error);
    // The chat view is same-origin with the workbench in code-server: one renderer heap for both.
    const renderer = await page.context().newCDPSession(page);
    const heaps = async () => ({
      host: (await heapAfterGc(inspector.send)).usedMiB * MiB,
      view: (await heapAfterGc((m, p) => renderer.send(m, p))).usedMiB * MiB,
    });
    const before = await heaps();

    /**
     * Sends `text` and waits for this turn's own answer and its end: an earlier "still here" does not
     * count, and the next prompt is typed only once Send is back (Enter does nothing while a turn runs).
     */
    const askStillThere = async (text) => {
      // Counted in the chat's entries, not its elements: the page holds only the entries near the view.
      const answers = () =>
        chat.evaluate(
          () =>
            document
              .querySelector('acp-chat-app')
              .entries.filter((e) => e?.kind === 'assistant' && e.text.includes('still here')).length,
        );
      const before = await answers();
      await send(text);
      for (const end = Date.now() + 30_000; (await answers()) <= before;) {
        if (Date.now() > end) throw new Error(`no answer to "${text}" within 30 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await chat.locator('acp-chat-composer button.send').waitFor({ timeout: 30_000 });
    };

    const runs = [];
    for (const seed of seeds) {
      const at = Date.now();
      await send(`fuzz ${seed}`);
      const reportFile = path.join(parent, `report-${seed}.json`);
      for (const end = Date.now() + 180_000; !fs.existsSync(reportFile);) {
        if (Date.now() > end) throw new Error(`the fuzz run of seed ${seed} did not finish within 180 s`);
        await new Promise((r) => setTimeout(r, 250));
      }
      // Sent: now the chat has to take it all in and end the turn.
      await chat.locator('acp-chat-composer button.send').waitFor({ timeout: 120_000 });
      runs.push({ seed, ...JSON.parse(fs.readFileSync(reportFile, 'utf8')), ms: Date.now() - at });
      // The chat answers afterwards (fuzzed permission requests may still wait for an answer).
      await askStillThere('are you there?');
    }
    if (pageCrashed) throw new Error('the workbench page crashed');
    const hostAfter = extensionHostPid(server.pid);
    if (hostAfter !== host) throw new Error(`the extension host was replaced (${host} -> ${hostAfter}): it crashed`);
    const afterFuzz = await heaps();

    await runCommand(page, 'ACP: Close Chat');
    await askStillThere('and after closing that chat?');
    const afterNew = await heaps();
    inspector.close();

    const escaped = fs.readdirSync(outside, { recursive: true });
    if (escaped.length > 0) throw new Error(`the agent wrote outside the workspace: ${escaped.join(', ')}`);
    const figures = {
      cases: count * seeds.length,
      runs,
      seconds: Math.round((Date.now() - started) / 1000),
      heap: {
        host: { before: before.host, afterFuzz: afterFuzz.host, afterClose: afterNew.host },
        view: { before: before.view, afterFuzz: afterFuzz.view, afterClose: afterNew.view },
      },
    };
    const problems = [];
    if (afterFuzz.host - before.host > HOST_HEAP_BOUND) {
      problems.push(`host heap grew ${mib(afterFuzz.host - before.host)} (bound ${mib(HOST_HEAP_BOUND)})`);
    }
    if (afterFuzz.view - before.view > VIEW_HEAP_BOUND) {
      problems.push(`view heap grew ${mib(afterFuzz.view - before.view)} (bound ${mib(VIEW_HEAP_BOUND)})`);
    }
    if (afterNew.host - before.host > AFTER_NEW_CHAT_BOUND) {
      problems.push(
        `host heap after Close Chat is ${mib(afterNew.host - before.host)} over its start (bound ${mib(AFTER_NEW_CHAT_BOUND)})`,
      );
    }
    if (afterNew.view - before.view > AFTER_NEW_CHAT_BOUND) {
      problems.push(
        `view heap after Close Chat is ${mib(afterNew.view - before.view)} over its start (bound ${mib(AFTER_NEW_CHAT_BOUND)})`,
      );
    }
    if (problems.length > 0) throw new Error(`memory not bounded: ${problems.join('; ')}\n${JSON.stringify(figures)}`);
    return figures;
  } catch (error) {
    // What the chat showed, for the failure report.
    const shot = path.join(REPO_ROOT, 'test-results', 'fuzz-failure.png');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot }).catch(() => {});
    const shown = await webviewFrame(page, 'acp-chat-app', { timeout: 5_000 })
      .then((f) => f.evaluate(lastEntriesText))
      .catch((e) => `(no chat: ${e.message})`);
    // The extension's log (an output channel: a file under the server's logs).
    const logs = fs
      .readdirSync(path.join(server.userDataDir, 'logs'), { recursive: true })
      .filter((f) => /ACP.*\.log$/i.test(f));
    for (const log of logs) {
      fs.copyFileSync(
        path.join(server.userDataDir, 'logs', log),
        path.join(REPO_ROOT, 'test-results', `fuzz-${path.basename(log)}`),
      );
    }
    error.stack = `${error.stack}\nlogs: ${logs.join(', ')}\nscreenshot: ${shot}\nthe chat's last text:\n${shown.slice(-3_000)}`;
    throw error;
  } finally {
    await session.close();
    fs.rmSync(parent, { recursive: true, force: true });
  }
}

export function describeFuzz(f) {
  const h = f.heap;
  return (
    `fuzz: ${f.cases} cases in ${f.seconds} s (${f.runs.map((r) => `seed ${r.seed}: ${r.sent} sent, ${r.broken} broken lines, ${mib(r.bytes)}, ${r.answers} answered, ${r.ms} ms`).join('; ')}); ` +
    `host heap ${mib(h.host.before)} -> ${mib(h.host.afterFuzz)} after the fuzz -> ${mib(h.host.afterClose)} after Close Chat; ` +
    `renderer heap (workbench and chat view) ${mib(h.view.before)} -> ${mib(h.view.afterFuzz)} -> ${mib(h.view.afterClose)}`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seeds = (option('seeds', process.env.ACP_FUZZ_SEEDS) ?? '1,2').split(',').map(Number);
  runFuzzUiTest({ count: Number(option('count', 2_500)), seeds }).then(
    (f) => console.log(describeFuzz(f)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
